"""Core Django settings, read from the environment (see ``env.py`` and README.md).

Nothing set gives the embedded default: SQLite file, console e-mail, DEBUG off (the
site as players see it: our own error pages; ``DJANGO_DEBUG=1`` turns DEBUG on).
``DJANGO_PRODUCTION=1`` flips the defaults of the security values below; each of them
can still be overridden one by one.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from .env import BASE_DIR, PRODUCTION, REDIS_URL, env

# Off unless asked: with DEBUG on, a 404 lists every URL pattern and a 500 shows
# a traceback with settings, to whoever reaches the address (even 0.0.0.0).
DEBUG: bool = env.bool("DJANGO_DEBUG", default=False)

# Production must bring its own key; the fallback only serves the embedded default.
SECRET_KEY: str = (
    env.str("DJANGO_SECRET_KEY")
    if PRODUCTION
    else env.str("DJANGO_SECRET_KEY", default="django-insecure-embedded-default-key")
)

ALLOWED_HOSTS: list[str] = env.list(
    "DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"]
)
CSRF_TRUSTED_ORIGINS: list[str] = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # daphne first: its runserver serves ASGI (HTTP and websockets) in development.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "django_celery_beat",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "leaderboard",
    "moderation",
]

MIDDLEWARE = [
    "mahjong_site.middleware.TrustedProxyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "mahjong_site.middleware.ChineseFirstLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "mahjong_site.middleware.MethodNotAllowedPageMiddleware",
]

ROOT_URLCONF = "mahjong_site.urls"
WSGI_APPLICATION = "mahjong_site.wsgi.application"
ASGI_APPLICATION = "mahjong_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.player",
            ],
        },
    },
    # The live table's frame partials (games/partials/*.html), rendered for
    # each seat after every event: Jinja2 takes ~60 % of the CPU Django's
    # template language took for them.
    # Found by name like any template (render_to_string picks the engine).
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "mahjong_site.jinja_env.environment"},
    },
]

# --- Database -------------------------------------------------------------------
# DATABASE_URL=postgres://user@host:5432/name selects PostgreSQL (psycopg 3).
DATABASES = {
    "default": env.dj_db_url(
        "DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env.int("DATABASE_CONN_MAX_AGE", default=0),
        # Off by default: with persistent connections a health check costs a
        # ``SELECT 1`` round trip on every consumer call (channels closes old
        # connections around each one).  Without it, a connection broken by a
        # database restart fails one request and is then replaced.
        conn_health_checks=env.bool("DATABASE_CONN_HEALTH_CHECKS", default=False),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Server-side prepared statements for the live table's hot statements
    # (games.services.rows.prepared_cursor: the move's lock read and writes,
    # a frame's read, the clock's): prepared on a connection after this many
    # runs, which halves PostgreSQL's CPU for them (issue 15).  Every other
    # query keeps Django's client-side binding and is never prepared.  0
    # turns preparing off (a pooler in transaction mode that cannot keep
    # prepared statements, e.g. PgBouncer before 1.21).
    DATABASES["default"]["OPTIONS"] = {
        "prepare_threshold": env.int("DATABASE_PREPARE_THRESHOLD", default=5) or None
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer at a time, taken at BEGIN: avoids "database is locked" upgrades
    # when the site and a management command write together.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- Cache ----------------------------------------------------------------------
# Shared between Daphne processes when Redis is configured (allauth rate limits).
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "mahjong",
        },
        # games.presence: who has the lobby or a table open (TTL heartbeats),
        # shared by every Daphne process
        "presence": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "mahjong-presence",
        },
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        # one process (runserver): its memory; never culled below the bound
        "presence": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "presence",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        },
    }

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# --- Internationalisation ---------------------------------------------------------
# Chinese first; English by the visitor's choice (language switcher, cookie).
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("简体中文")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("DJANGO_TIME_ZONE", default="Asia/Shanghai")
USE_I18N = True
USE_TZ = True

# --- Static files -----------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The embedded default serves static files straight from the finders (no
# collectstatic), DEBUG on or off; production serves the collected, hashed files.
WHITENOISE_USE_FINDERS: bool = not PRODUCTION
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": env.str(
            "DJANGO_STATICFILES_STORAGE",
            default=(
                "whitenoise.storage.CompressedManifestStaticFilesStorage"
                if PRODUCTION
                else "django.contrib.staticfiles.storage.StaticFilesStorage"
            ),
        )
    },
}

# --- E-mail -----------------------------------------------------------------------
EMAIL_BACKEND: str = env.str(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST: str = env.str("DJANGO_EMAIL_HOST", default="localhost")
EMAIL_PORT: int = env.int("DJANGO_EMAIL_PORT", default=25)
EMAIL_HOST_USER: str = env.str("DJANGO_EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD: str = env.str("DJANGO_EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS: bool = env.bool("DJANGO_EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL: str = env.str(
    "DJANGO_DEFAULT_FROM_EMAIL", default="二人麻将 <noreply@localhost>"
)
SERVER_EMAIL: str = DEFAULT_FROM_EMAIL

# --- Security (defaults follow the production switch) -----------------------------
SECURE_SSL_REDIRECT: bool = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=PRODUCTION)
SESSION_COOKIE_SECURE: bool = env.bool("DJANGO_SECURE_COOKIES", default=PRODUCTION)
CSRF_COOKIE_SECURE: bool = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS: int = env.int(
    "DJANGO_SECURE_HSTS_SECONDS", default=31_536_000 if PRODUCTION else 0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS: bool = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD: bool = env.bool(
    "DJANGO_SECURE_HSTS_PRELOAD", default=SECURE_HSTS_SECONDS > 0
)
# The reverse proxy terminates TLS and tells us so.
BEHIND_PROXY: bool = env.bool("DJANGO_BEHIND_PROXY", default=PRODUCTION)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
# Addresses or networks of the reverse proxies whose X-Forwarded-For is
# believed (mahjong_site.middleware.TrustedProxyMiddleware): the client's
# address is then the last X-Forwarded-For entry that is not one of them, and
# allauth's per-address login and sign-up limits count real clients, not the
# proxy (issue 11 §5.5). Empty: X-Forwarded-For is ignored (embedded default).
TRUSTED_PROXIES: list[str] = env.list(
    "DJANGO_TRUSTED_PROXIES", default=["127.0.0.1", "::1"] if BEHIND_PROXY else []
)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", "INFO")},
    # Django's default "django" handler would print every record a second time.
    "loggers": {
        "django": {"handlers": [], "propagate": True},
        "django.channels.server": {"handlers": [], "propagate": True},
    },
}
