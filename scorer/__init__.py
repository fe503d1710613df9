"""Scorer: a score pad for trick-taking card games played with real cards."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, g

ROOT = Path(__file__).resolve().parent.parent


def _secret_key(instance: Path) -> str:
    """Generated once into instance/ so every worker shares it; never in the code."""
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    for _attempt in range(50):  # another worker may be writing it this instant
        key = path.read_text().strip()
        if key:
            return key
        import time
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty")


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_path=os.environ.get("SCORER_INSTANCE") or str(ROOT / "instance"),
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.update(
        DATABASE=str(instance / "scorer.db"),
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,
        BABEL_DEFAULT_LOCALE="en",
        JSON_AS_ASCII=False,
    )
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    from flask_wtf.csrf import CSRFProtect

    from . import i18n

    i18n.init_app(app)  # Flask-Babel, the locale, the language switch
    CSRFProtect(app)

    from . import store

    def get_db():
        if "db" not in g:
            g.db = store.connect(app.config["DATABASE"])
        return g.db

    app.extensions["scorer_db"] = get_db

    @app.teardown_appcontext
    def close_db(_exc):
        db = g.pop("db", None)
        if db is not None:
            db.close()

    with app.app_context():
        store.init(get_db())

    from .web import register

    register(app)

    from .cli import register_cli

    register_cli(app)
    return app
