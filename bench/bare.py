"""The bare route bench/serve.py measures Scorer against: one Flask route, no
database, no template, under the same gunicorn flags."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "ok"
