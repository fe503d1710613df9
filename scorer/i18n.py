"""Every string a player reads passes through here.

``_`` is Flask-Babel's gettext: inside a request it translates to the
request's locale; outside one (the CLI, unit tests) Flask-Babel returns the
English text. Parameters use %(name)s, as gettext expects.
"""

from flask_babel import gettext, lazy_gettext, ngettext

_ = gettext
L_ = lazy_gettext

__all__ = ["_", "L_", "ngettext"]
