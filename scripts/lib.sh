# Shared set-up steps for scripts/run and scripts/test (sourced, not executed).
# Needs only Python 3.11; installs gettext/chromium with apt-get when missing (root).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

log() { printf '\033[1;32m==>\033[0m %s\n' "$*"; }

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.11 python3; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
            echo "$candidate"
            return 0
        fi
    done
    echo "Python 3.11 is required (set PYTHON=/path/to/python3.11)." >&2
    return 1
}

# setup_venv REQUIREMENTS_FILE: create .venv if missing; pip install when the
# requirement files changed since the last successful install.
setup_venv() {
    local requirements="$1" python stamp wanted
    if [ ! -x .venv/bin/python ]; then
        python="$(find_python)"
        log "Creating .venv with $python"
        "$python" -m venv .venv
    fi
    stamp=".venv/.installed-$(basename "$requirements")"
    wanted="$(cat requirements*.txt | sha256sum | cut -d' ' -f1)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
        log "Installing $requirements"
        .venv/bin/python -m pip install --disable-pip-version-check -q --upgrade pip
        .venv/bin/python -m pip install --disable-pip-version-check -q -r "$requirements"
        echo "$wanted" >"$stamp"
    fi
    # shellcheck disable=SC1091
    . .venv/bin/activate
}

apt_install() {
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null 2>&1 && sudo="sudo" || {
            echo "Please install: $* (apt-get install -y $*)" >&2
            return 1
        }
    fi
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"
}

ensure_gettext() {
    command -v msgfmt >/dev/null 2>&1 || { log "Installing gettext"; apt_install gettext; }
}

# Debian's chromium, for screenshots and the browser tests.
ensure_chromium() {
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || {
        log "Installing chromium"
        apt_install chromium
    }
}

# Noto Serif CJK (SIL OFL 1.1), only so the tests can regenerate the committed tile
# SVGs byte for byte (tools/gen_tiles.py); the site itself never needs the font.
ensure_tile_font() {
    [ -f /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc ] || {
        log "Installing fonts-noto-cjk (tile artwork check)"
        apt_install fonts-noto-cjk
    }
}

compile_messages() {
    log "Compiling translations"
    python manage.py compilemessages --ignore=.venv --ignore=staticfiles -v 0
}
