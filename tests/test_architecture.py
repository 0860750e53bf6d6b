"""The engine is pure: importing every game pulls in no Flask, SQLAlchemy or web code."""

from __future__ import annotations

import subprocess
import sys


def test_engine_imports_no_framework() -> None:
    code = (
        "import sys, scorekeeper.engine as e; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'flask', 'sqlalchemy', 'flask_sqlalchemy', 'werkzeug'} "
        "or m.startswith(('scorekeeper.web', 'scorekeeper.models', 'scorekeeper.service'))); "
        "print('bad=' + ','.join(bad)); print(len(e.RULES))"
    )
    # Import via the engine package alone: scorekeeper/__init__ imports Flask, so load the engine by path.
    out = subprocess.run([sys.executable, "-c", "import importlib.util, sys, pathlib;"
                          "root = pathlib.Path('scorekeeper');"
                          "spec = importlib.util.spec_from_file_location('scorekeeper', root / '__init__.py', submodule_search_locations=[str(root)]);"
                          "mod = importlib.util.module_from_spec(spec); sys.modules['scorekeeper'] = mod;"
                          + code], capture_output=True, text=True, check=True)
    bad, count = out.stdout.strip().splitlines()
    assert bad == "bad="
    assert int(count) >= 1


def test_migrations_create_the_schema(tmp_path) -> None:
    from flask_migrate import upgrade
    from sqlalchemy import inspect

    from scorekeeper import create_app
    from scorekeeper.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite'}", "SECRET_KEY": "x"})
    with app.app_context():
        upgrade()
        tables = set(inspect(db.engine).get_table_names())
        assert {"tables", "seats", "events"} <= tables
        columns = {c["name"] for c in inspect(db.engine).get_columns("events")}
        assert {"table_id", "seq", "type", "payload", "author", "created_at"} <= columns


def test_the_migrations_build_what_the_models_declare(tmp_path) -> None:
    """Alembic's own comparison of the migrated schema with the models finds nothing to change:
    a model edited without its migration (or the reverse) fails here, not on a server."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from flask_migrate import upgrade
    from sqlalchemy import inspect

    from scorekeeper import create_app
    from scorekeeper.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite'}", "SECRET_KEY": "x"})
    with app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert differences == []
        assert [i["name"] for i in inspect(db.engine).get_indexes("events")] == []  # the unique constraint's only


def _private_imports() -> list[tuple[str, str, str]]:
    """(importing module, imported module, name) for every underscore name imported by name."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    found = []
    for path in sorted((root / "scorekeeper").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found += [(module, node.module, alias.name) for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    return found


def _package_of(module: str) -> str:
    from importlib.util import find_spec

    spec = find_spec(module)
    return module if spec is not None and spec.submodule_search_locations else module.rpartition(".")[0]


def test_no_private_name_crosses_a_package() -> None:
    """A name with an underscore is its package's own: another package asks for a public one."""
    crossing = [(importer, imported, name) for importer, imported, name in _private_imports()
                if not (importer + ".").startswith(_package_of(imported) + ".")]
    assert crossing == []


def test_the_fishing_capture_modules_share_only_public_names() -> None:
    """Each helper the capture modules share has one home and a public name (issue 24)."""
    shared = [(importer, imported, name) for importer, imported, name in _private_imports()
              if imported.startswith("scorekeeper.engine.fishing") or importer.startswith("scorekeeper.engine.fishing")]
    assert shared == []
