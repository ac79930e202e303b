"""Settings for the VABG league manager, read from the environment.

With nothing set the product runs on SQLite with Celery eager, so a fresh checkout needs no
servers. ``DATABASE_URL`` switches to PostgreSQL (psycopg 3) and ``CELERY_BROKER_URL`` (or
``REDIS_URL``) to a Redis broker with real workers. See README.md for every variable.
"""

from __future__ import annotations

import builtins
import os
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import django_stubs_ext
import environ
from corsheaders.defaults import default_headers as cors_default_headers
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

# Django's generic classes (ModelAdmin[Team], ...) accept type arguments at run time too, as
# django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


class _Env(environ.Env):  # type: ignore[misc]
    """django-environ, refusing a value it would misread, with the variable's name: its
    own ``bool`` reads any unknown word (``DEBUG=ture``, ``SECURE_SSL_REDIRECT=flase``) as
    false, and its ``int`` and ``float`` stop with a bare ``ValueError`` naming nothing."""

    TRUE = frozenset({"true", "on", "ok", "y", "yes", "1"})
    FALSE = frozenset({"false", "off", "n", "no", "0", ""})

    def bool(self, var: str, default: object = environ.Env.NOTSET) -> builtins.bool:
        raw = os.environ.get(var)
        if raw is None:
            return builtins.bool(super().bool(var, default=default))
        if raw.strip().lower() in self.TRUE:
            return True
        if raw.strip().lower() in self.FALSE:
            return False
        raise ImproperlyConfigured(f"{var}={raw!r} is neither true nor false (write true or false)")

    def int(self, var: str, default: object = environ.Env.NOTSET) -> builtins.int:
        raw = os.environ.get(var)
        if raw is None:
            return builtins.int(super().int(var, default=default))
        try:
            return builtins.int(raw.strip())
        except ValueError:
            raise ImproperlyConfigured(f"{var}={raw!r} is not a whole number") from None

    def float(self, var: str, default: object = environ.Env.NOTSET) -> builtins.float:
        raw = os.environ.get(var)
        if raw is None:
            return builtins.float(super().float(var, default=default))
        try:
            return builtins.float(raw.strip())
        except ValueError:
            raise ImproperlyConfigured(f"{var}={raw!r} is not a number") from None

    RATE_PERIODS = ("s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day")

    def rate(self, var: str, default: str) -> str:
        """Return a request rate as DRF's throttles and the challenge's read it, ``"120/min"``
        (a count of 1 or more, a slash, a period: second, minute, hour or day); refuse any
        other. Unread, a rate written wrong answered every API request with a 500."""
        raw = builtins.str(self.str(var, default=default)).strip()
        count, slash, period = raw.partition("/")
        if not (slash and count.isdigit() and int(count) > 0) or period not in self.RATE_PERIODS:
            raise ImproperlyConfigured(
                f"{var}={raw!r} is not a rate: write a count and a period, e.g. 120/min "
                "(the period s, min, hour or day)"
            )
        return raw


env = _Env()

# The shared research and spec folder beside the project (../shared), read by the field
# tools and tests.
SHARED_DIR = Path(env.str("SHARED_DIR", default=str(BASE_DIR.parent / "shared")))
# Where `manage.py research` writes a run's figures by default (RESEARCH_DIR/run-ID).
RESEARCH_DIR = Path(env.str("RESEARCH_DIR", default="research"))

DEBUG = env.bool("DEBUG", default=True)
# A development key is only acceptable while DEBUG is on.
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-for-the-vabg-league-manager"
elif not DEBUG and (
    len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH
    or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
    or SECRET_KEY.startswith(SECRET_KEY_INSECURE_PREFIX)
):
    # Sessions, password resets and signed cookies are only as safe as the key: refused at
    # start, by `check --deploy`'s own rule, rather than a warning nobody runs.
    raise ImproperlyConfigured(
        f"SECRET_KEY is too weak for DEBUG off: it needs {SECRET_KEY_MIN_LENGTH} characters "
        f"or more, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different, and no "
        f"'{SECRET_KEY_INSECURE_PREFIX}' prefix (make one with: python3 -c 'import secrets; "
        "print(secrets.token_urlsafe(50))')"
    )
ALLOWED_HOSTS = [
    host.strip()
    for host in env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
    if host.strip()  # "ALLOWED_HOSTS= " named no host: every request would get a 400
]
if not DEBUG and not [h for h in env.list("ALLOWED_HOSTS", default=[]) if h.strip()]:
    # The development hosts would answer every visitor of the real name with a 400.
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set when DEBUG is off: the site's host names, comma-separated, "
        "e.g. ALLOWED_HOSTS=vabg.example.org"
    )
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "corsheaders",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "axes",
    "core",
    "cards",
    "league",
    "challenge",
    "table",
]

MIDDLEWARE = [
    # /healthz for load balancers, whatever Host they send, over HTTP too (config/health.py).
    "config.health.HealthzFirst",
    # Other sites' pages may call /api/ from the browser (CORS settings below); first, so
    # that every answer under /api/ carries the headers, errors and redirects included.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Answers compressed for a client that takes gzip: a table game's state after each die
    # (a whole six-dice game's plays, 250 KB) is 16 KB so, a box score page a tenth. Django's
    # own, with its BREACH mitigation (random bytes in each gzip header); above the ETag
    # middleware, which makes its ETag weak. A 304 keeps the Vary: Accept-Encoding of the
    # page it stands for (core/compression.py).
    "core.compression.GZipMiddleware",
    # Static files served by the application itself (gunicorn in production), compressed.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An ETag from each page's content, and 304 Not Modified to a client that sends it back
    # (If-None-Match) and already holds that page: above the public-pages middleware, so a
    # 304 keeps the Cache-Control it sets.
    "django.middleware.http.ConditionalGetMiddleware",
    # Before the session and CSRF middleware, so that it sees the cookies they set: a
    # response that sets one is never made public (core/caching.py).
    "core.caching.PublicPagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # An API address without its trailing slash is served, not redirected (a redirected
    # POST would come back as a GET and its write be lost): core/apislash.py.
    "core.apislash.ApiSlashMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "challenge.context_processors.tournament_pools",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# SQLite by default: IMMEDIATE transactions and a busy timeout so a worker and the web process
# writing at once wait for each other instead of failing with "database is locked".
SQLITE_PATH = env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3"))
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db_url("DATABASE_URL")}
    # (a URL without its scheme's "://", "postgres//host/db", reads as no engine at all)
    if DATABASES["default"].get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured(
            "DATABASE_URL must be a postgres:// URL (or unset for the SQLite default)."
        )
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    if DATABASES["default"]["CONN_MAX_AGE"] < 0:
        raise ImproperlyConfigured("CONN_MAX_AGE must be 0 or more (0: a connection a request).")
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # A session left idle inside a transaction (its worker's host cut off the network in the
    # middle of storing a game) is ended by the server after this long, so the row locks it
    # held (the game's, the run's, the season's) go back to the other workers.
    _idle = env.int("DATABASE_IDLE_TRANSACTION_SECONDS", default=60)
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
        f"-c idle_in_transaction_session_timeout={_idle * 1000}"
    )
    DATABASES["default"].setdefault("TEST", {})
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# In development (and tests) WhiteNoise serves the apps' files as they are; in production
# `make serve` collects them into STATIC_ROOT first.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG
LOGIN_URL = "admin:login"

# --- Security -------------------------------------------------------------------------------
# Behind how many reverse proxies the product runs. 0 (the default): X-Forwarded-For is
# ignored and the client is the connection's address, so nobody dodges the API throttle or
# the login lockout by inventing a header. Set it to the number of proxies you run.
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
if NUM_PROXIES < 0:
    raise ImproperlyConfigured("NUM_PROXIES must be 0 or more.")
# With DEBUG off, HTTPS is on by default: each can be turned off by its variable (a site
# behind a TLS-terminating proxy sets SECURE_PROXY_SSL_HEADER=true, for example).
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The admin login locks a username from an address after AXES_FAILURE_LIMIT wrong
# passwords for AXES_COOLOFF_MINUTES (django-axes); the address is read as the API's is.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "core.auth.AnyCaseUsernameBackend",  # Django's, the user name in any case (core/auth.py)
]
# The fans' sign-up and sign-in (challenge/accounts.py): tries an address may make.
CHALLENGE_SIGNUP_RATE = env.rate("CHALLENGE_SIGNUP_RATE", default="10/hour")
CHALLENGE_SIGNIN_RATE = env.rate("CHALLENGE_SIGNIN_RATE", default="30/minute")
# Wrong invitation codes of private pools an address may bring, pages and API together.
CHALLENGE_CODE_RATE = env.rate("CHALLENGE_CODE_RATE", default="20/hour")
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"
AXES_USERNAME_CALLABLE = "core.auth.lockout_name"  # one count for every case of a name
AXES_LOCKOUT_CALLABLE = "core.auth.lockout_response"  # its template, with Retry-After
# The locked page says for how long and how to lift it (axes' own said "try again later").
AXES_LOCKOUT_TEMPLATE = "lockout.html"

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or env.str("REDIS_URL", default="")
# No broker configured: run tasks in-process, so the embedded default needs no servers
# (pretix's HAS_CELERY switch). Errors propagate so a failed simulation is never silent.
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = CELERY_BROKER_URL or "memory://"
# Results live in PostgreSQL/SQLite rows (game status), never in the broker.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# At-least-once delivery, on purpose: the database makes a second delivery harmless (a game
# is claimed with a conditional UPDATE, locked while it is stored, and has one result row).
# - Late acks: a message is acknowledged after its task ran, so a worker that dies mid-game
#   leaves the message to be delivered again instead of losing the game.
# - Reject on a lost worker: a worker killed by a signal (OOM, SIGKILL) requeues its message.
# - Prefetch of one: a worker holds only the game it is playing; a killed worker strands
#   nothing else, and a round spreads evenly over the workers.
# - Visibility timeout: Redis redelivers an unacknowledged message after this long. It must
#   be longer than any game takes (milliseconds) plus the queue's wait; it is kept short so a
#   lost worker costs minutes, not Redis's default hour. The sweeper below covers the rest.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600)
}
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 100
# A short broker blip must not cost a game: in-flight games finish and store (their late
# ack may be lost; the redelivery then finds the game final and does nothing).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# One queue per kind of work, as the in-process lanes (league/background.py) keep them apart:
# `celery` the games, `sweeper` the sweep, `pairings` what a fan's page waits for (a played
# game's chart, a preview's or a matchup's law, the other games' pairings: a fraction of a
# second each), `odds` a season's pair table (seconds a task, a dozen or more a new field)
# and `research` a research run's chunks (hundreds for a million games). A worker started
# without -Q consumes them all and takes them in turn (kombu's Redis transport rotates the
# queues it waits on after every message), so a games run, a chart a fan waits for or the
# sweep are never stuck behind a backlog of another kind: each waits for at most the tasks
# in hand, not the queue. A big installation may also run workers for some queues alone
# (`celery -A config worker -Q celery,sweeper`, `-Q research`; README, "Workers and recovery").
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = tuple(
    Queue(name) for name in ("celery", "sweeper", "pairings", "odds", "research")
)
CELERY_TASK_ROUTES = {
    "league.sweep": {"queue": "sweeper"},
    "league.odds_game_chart": {"queue": "pairings"},
    "league.odds_game_law": {"queue": "pairings"},
    "league.odds_pair_law": {"queue": "pairings"},
    "league.odds_season_places": {"queue": "pairings"},
    "league.other_odds_pairings": {"queue": "pairings"},
    "league.odds_pair_table": {"queue": "odds"},
    "league.research_chunk": {"queue": "research"},
}
# The sweeper hands out again games left running past their lease or queued and lost
# (`celery -A config beat`, or a worker started with -B). A sweep is one indexed query when
# nothing is lost. One not run by the next is dropped (it expires), so sweeps sent while
# no worker ran do not pile up.
LEAGUE_SWEEP_EVERY = env.float("LEAGUE_SWEEP_EVERY", default=5.0)
CELERY_BEAT_SCHEDULE = {
    "league-sweep": {
        "task": "league.sweep",
        "schedule": LEAGUE_SWEEP_EVERY,
        "options": {"expires": LEAGUE_SWEEP_EVERY},
    },
}
# A worker that lost the broker tries it again every second or two (Celery's own backoff
# grows to 30 s between tries), so queued games resume within seconds of its return.
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
# With no broker, a web process (runserver, gunicorn) runs the tasks in threads of its own
# after answering (league/background.py): starting a run or building a field's odds answers
# at once, and pages follow the progress. Off: they run inside the request, as Celery's eager
# mode does (commands and the tests always do, unless a test turns the threads on).
LEAGUE_IN_PROCESS_WORKER = env.bool("LEAGUE_IN_PROCESS_WORKER", default=True)

# --- Simulation --------------------------------------------------------------------------------
# A claimed game belongs to its worker for this long; past it the game is handed out again.
# The worker renews it three times a lease while it plays (a heartbeat), so a slow game
# keeps it and a dead worker's game is free again at most a lease after its last beat.
LEAGUE_LEASE_SECONDS = env.int("LEAGUE_LEASE_SECONDS", default=10)
# A game whose worker was lost this many times is marked failed instead of tried again.
LEAGUE_MAX_ATTEMPTS = env.int("LEAGUE_MAX_ATTEMPTS", default=3)
# `simulate` waits out a database outage this long (retrying with backoff) before it stops
# following its run with a one-line reason; the workers carry on either way.
LEAGUE_OUTAGE_SECONDS = env.float("LEAGUE_OUTAGE_SECONDS", default=60.0)

# --- Uploads ------------------------------------------------------------------------------------
# Team files (admin import, API import, `import_team`): one file at most this many bytes, and
# a team's or a player's notes at most this many characters (also checked on every save).
TEAM_FILE_MAX_BYTES = env.int("TEAM_FILE_MAX_BYTES", default=256 * 1024)
TEAM_NOTES_MAX_CHARS = env.int("TEAM_NOTES_MAX_CHARS", default=4000)
# A zip of team files: at most this many files, inflating to at most this many bytes (also the
# most one import reads in all). Both are checked from the zip's directory before anything is
# inflated, and again while inflating. 300 files: the admin's export of every team (the 96
# field and those a commissioner adds) imports again; 96, the field's size, refused a 97th.
TEAM_ZIP_MAX_ENTRIES = env.int("TEAM_ZIP_MAX_ENTRIES", default=300)
TEAM_ZIP_MAX_BYTES = env.int("TEAM_ZIP_MAX_BYTES", default=25 * 1024 * 1024)

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        # DRF's, refusing an unknown ordering and documented only where a view has them.
        "core.filters.OrderingFilter",
        "core.filters.SearchFilter",
    ],
    # DRF's parsers, JSON's refusing a body nested too deeply with a 400 (core.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # 50 rows a page; page_size asks for up to 500 (core/pagination.py).
    "DEFAULT_PAGINATION_CLASS": "core.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    # OPTIONS describes the body each write takes, as the schema documents it (core/metadata.py).
    "DEFAULT_METADATA_CLASS": "core.metadata.RequestMetadata",
    # drf-spectacular's, knowing which operations anyone may call (core/schema.py).
    "DEFAULT_SCHEMA_CLASS": "core.schema.AutoSchema",
    # DRF's anonymous throttle and a signed-in fan's, counted atomically in Redis
    # (config/throttling.py); commissioners are not throttled.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonRateThrottle",
        "config.throttling.SignedInRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.rate("API_ANON_RATE", default="120/min"),
        "user": env.rate("API_USER_RATE", default="600/min"),
        # a password tried for an API token, as a fan's sign-in (config/throttling.py)
        "signin": CHALLENGE_SIGNIN_RATE,
    },
    "NUM_PROXIES": NUM_PROXIES,
    # Errors Django raises while reading a request (a body over DATA_UPLOAD_MAX_MEMORY_SIZE...)
    # answer in JSON like every other API error.
    "EXCEPTION_HANDLER": "core.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "VABG League Manager API",
    "DESCRIPTION": "Teams, player cards, leagues, seasons, tournaments and box scores of the "
    "Value Add Basketball Game.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's sections, in this order (core.schema.AutoSchema.get_tags names each
    # operation's by its path).
    "TAGS": [
        {
            "name": "teams",
            "description": "Teams and their rosters (a commissioner imports "
            "and edits them); each team's file for the simulator.",
        },
        {"name": "players", "description": "Players, their cards and their game logs."},
        {"name": "cards", "description": "Player cards, as the game reads them."},
        {"name": "leagues", "description": "Leagues and the seasons they hold."},
        {
            "name": "seasons",
            "description": "Seasons and tournaments: standings, schedule, "
            "player and team stats, leaders, the exact odds of what is left to play.",
        },
        {"name": "tournaments", "description": "Tournaments: the bracket and its games."},
        {
            "name": "games",
            "description": "Games: box score, play-by-play, the exact preview and win probability.",
        },
        {"name": "matchup", "description": "The exact odds of any two teams."},
        {"name": "runs", "description": "Simulation runs: what is being played, and how far."},
        {"name": "challenges", "description": "Bracket challenges a fan enters."},
        {"name": "challenge-entries", "description": "A fan's entries and their points."},
        {"name": "table", "description": "Games played with real dice at the table."},
        {"name": "auth", "description": "A token for scripts and apps."},
    ],
    # Swagger UI's scripts and styles are served with the project (drf-spectacular-sidecar,
    # static files), not from a CDN: /api/docs/ works offline and behind a strict firewall.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep links (drf-spectacular's default has them): each operation's path is then a
    # link inside the button that opens it, a control within a control (nested-interactive).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    # A game at the table's status has its own choices beside a league game's and a run's.
    # A season's kind is in two components (Season, SeasonCreated): named once, as before.
    "ENUM_NAME_OVERRIDES": {
        "TableGameStatusEnum": "table.models.TableGame.Status",
        "SeasonKindEnum": "league.models.Season.Kind",
    },
    # Every error an operation can answer, in the schema (core/schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.schema.add_error_responses",
    ],
}

# CORS (django-cors-headers): a page of any other site may read and call /api/ from the
# browser (a bracket app, a stats page). "*" never carries the visitor's cookies (browsers
# refuse credentials with it), so a session's answers stay the site's own and such a page
# signs in with Authorization: Token. Scripts may read where a new object or run is
# (Location) and when to ask again after a 429 (Retry-After). The pages, the admin and the
# table stay the site's own.
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_URLS_REGEX = r"^/api/.*$"
# ETag: a page sends it back in If-None-Match (If-Modified-Since likewise) for a 304, which
# the preflight must then allow; Content-Disposition: the file name of a CSV export.
CORS_EXPOSE_HEADERS = ["Location", "Retry-After", "ETag", "Content-Disposition"]
CORS_ALLOW_HEADERS = (*cors_default_headers, "if-none-match", "if-modified-since")
CORS_PREFLIGHT_MAX_AGE = 86_400

# Cache: local memory by default (each process its own); CACHE_URL=redis://host:6379/1 shares
# one between the web processes. Throttling counts and played games' pages live here.
CACHES = {
    "default": env.cache_url("CACHE_URL")
    if env.str("CACHE_URL", default="")
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
# Every key is made under the release (a digest of the application's files, core/release.py):
# a shared cache outlives a release, and a new one must not serve what its predecessor
# rendered or counted.
CACHES["default"]["KEY_FUNCTION"] = "core.cache.release_key"
# A Redis cache that an outage of its Redis makes slower, never broken (core/cache.py): it
# reads as empty until Redis answers again; a silent host is given CACHE_TIMEOUT_SECONDS.
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHE_TIMEOUT_SECONDS = env.float("CACHE_TIMEOUT_SECONDS", default=1.0)
    CACHES["default"] = {
        **CACHES["default"],
        "BACKEND": "core.cache.ResilientRedisCache",
        "OPTIONS": {
            "socket_connect_timeout": CACHE_TIMEOUT_SECONDS,
            "socket_timeout": CACHE_TIMEOUT_SECONDS,
            **cast(dict[str, Any], CACHES["default"].get("OPTIONS") or {}),
        },
    }
# In production a cache each process keeps to itself would let every gunicorn worker count the
# API throttle on its own (4 workers: 4 times the documented rate): refused at start. The
# broker's Redis is not taken silently in its place: Django's cache.clear() empties its whole
# database, queued games included.
PROCESS_LOCAL_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}
if not DEBUG and CACHES["default"]["BACKEND"] in PROCESS_LOCAL_CACHES:
    raise ImproperlyConfigured(
        "CACHE_URL must name a cache all processes share when DEBUG is off, e.g. "
        "CACHE_URL=redis://127.0.0.1:6379/1 (a database of its own, not the broker's): with "
        f"{CACHES['default']['BACKEND'].rsplit('.', 1)[-1]} each gunicorn worker would count "
        "the API throttle and keep the pages on its own."
    )
# Production on the embedded default by accident (DATABASE_URL unset, empty or its name
# misspelt) would serve from the checkout's db.sqlite3 without a word.
if (
    not DEBUG
    and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    and not env.str("SQLITE_PATH", default="")
):
    raise ImproperlyConfigured(
        "DATABASE_URL must be set when DEBUG is off: the site's PostgreSQL, e.g. "
        "DATABASE_URL=postgres://vabg@db.example.org/vabg (or SQLITE_PATH=/path/to/"
        "db.sqlite3 to serve from a SQLite file on purpose)"
    )
# How long a played game's page (story, box score, charts, play-by-play) is kept rendered;
# it is keyed by the stored result and the current names of both teams and their players
# (league.views.names_key), so a rename shows at once: this only bounds how long a new
# template takes to show.
GAME_PAGE_CACHE_SECONDS = env.int("GAME_PAGE_CACHE_SECONDS", default=3600)
# A played game's whole page is the same for every visitor: it is sent with
# "Cache-Control: public, max-age=GAME_PAGE_MAX_AGE" so that a front cache (make serve-cached,
# README "Running in production") and browsers keep it that long; 0 sends no such header. A
# team or player renamed in the admin shows there within this many seconds (the application
# itself shows it at once).
GAME_PAGE_MAX_AGE = env.int("GAME_PAGE_MAX_AGE", default=300)
# A season's standings are kept computed, keyed by everything they read (a stored game, a
# renamed team or a moved conference makes a new key at once); this bounds only how long an
# unused entry stays.
STANDINGS_CACHE_SECONDS = env.int("STANDINGS_CACHE_SECONDS", default=3600)
# The fans' pages (home, seasons, a season's page, leaders, bracket, teams, players) and the
# API's public reads (lists, a season's standings and stats...) answered to a visitor with
# no session cookie and no Authorization header are sent "Cache-Control: public,
# max-age=FAN_PAGE_MAX_AGE, stale-while-revalidate=FAN_PAGE_STALE_SECONDS" (core.caching):
# the front cache (make serve-cached) answers a page from one rendering for that long, and
# for at most FAN_PAGE_STALE_SECONDS more while one request renders it again. A stored game
# shows on them within the sum (and the rendering). 0 sends no such header.
FAN_PAGE_MAX_AGE = env.int("FAN_PAGE_MAX_AGE", default=5)
FAN_PAGE_STALE_SECONDS = env.int("FAN_PAGE_STALE_SECONDS", default=5)
for _name in ("GAME_PAGE_MAX_AGE", "FAN_PAGE_MAX_AGE", "FAN_PAGE_STALE_SECONDS"):
    if globals()[_name] < 0:
        raise ImproperlyConfigured(f"{_name} must be 0 or more.")

# One line a record, with its time, level, program and logger (config/logs.py); a request
# refused as suspicious (a scanner's Host header) is one warning line, not an error with a
# traceback. LOG_PROGRAM (set by config/supervisord.conf: gunicorn, worker0, beat...) names
# the program, as every program of a set writes to supervisord's one output. A 4xx answer
# is not logged here (django.request at ERROR): the access log has each request already.
LOG_LEVEL = env.str("LOG_LEVEL", default="WARNING").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ImproperlyConfigured(
        f"LOG_LEVEL={LOG_LEVEL!r} is not a level: DEBUG, INFO, WARNING, ERROR or CRITICAL"
    )
LOG_PROGRAM = env.str("LOG_PROGRAM", default="").strip()
_PROGRAM = f" {LOG_PROGRAM}" if LOG_PROGRAM else ""
# Celery's own formats (a worker's and beat's lines), with the program after the process.
CELERY_WORKER_LOG_FORMAT = f"[%(asctime)s: %(levelname)s/%(processName)s]{_PROGRAM} %(message)s"
CELERY_WORKER_TASK_LOG_FORMAT = (
    f"[%(asctime)s: %(levelname)s/%(processName)s]{_PROGRAM} %(task_name)s[%(task_id)s]: "
    "%(message)s"
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": f"%(asctime)s %(levelname)s{_PROGRAM} %(name)s: %(message)s"}
    },
    "filters": {"client_faults": {"()": "config.logs.ClientFaultsOneLine"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["client_faults"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own configuration gives "django" a console handler of its own and the
        # level INFO, which printed the reloader's INFO lines twice whatever LOG_LEVEL said.
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        "django.request": {"level": "ERROR"},
    },
}
