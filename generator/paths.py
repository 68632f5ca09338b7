"""Where the project's own folders are. Core layer: paths only, no I/O."""
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = PACKAGE_DIR.parent
TEMPLATES_DIR = PROJECT_ROOT / "templates"
ICONS_DIR = TEMPLATES_DIR / "icons"
SITE_SOURCES_DIR = PROJECT_ROOT / "site"
MKDOCS_CONFIG = PROJECT_ROOT / "mkdocs.yml"
DEFAULT_DATA_DIR = PROJECT_ROOT / "data"
DEFAULT_OUT_DIR = PROJECT_ROOT / "output"
