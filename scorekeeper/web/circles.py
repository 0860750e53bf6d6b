"""placeholder"""
from flask import Blueprint
bp = Blueprint("circles", __name__)

@bp.get("/c/<circle_id>/k/<token>")
def enter(circle_id: str, token: str) -> str:
    return ""
