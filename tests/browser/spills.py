"""One check that two page tests share, as a JavaScript function to splice into theirs."""

# The controls (button, link-button, summary, label) whose own words run past their edge: a name
# past its radio's label runs into the next one and crosses no edge of the page. A box that clips
# on the way (an ellipsis) shows no more than it holds. ``skip``: a selector of what is not shown.
SPILLS = r"""((skip) => {
  const spilt = [];
  for (const el of document.body.querySelectorAll('button, a.button, summary, label')) {
    if (el.closest(skip) || !el.checkVisibility({visibilityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = texts.nextNode(); n; n = texts.nextNode()) {
      if (!n.data.trim() || (n.parentElement && n.parentElement.closest(skip))) continue;
      let right = Infinity, left = -Infinity;
      for (let a = n.parentElement; a && el.contains(a); a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') {
          const clip = a.getBoundingClientRect();
          right = Math.min(right, clip.right);
          left = Math.max(left, clip.left);
        }
      }
      const span = document.createRange();
      span.selectNodeContents(n);
      if ([...span.getClientRects()].some((r) => r.width > 0 && (Math.min(r.right, right) > box.right + 1
                                                                 || Math.max(r.left, left) < box.left - 1))) {
        spilt.push(el);
        break;
      }
    }
  }
  return spilt;
})"""
