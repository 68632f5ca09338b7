"""Where the tool's own files are. Core layer: paths only, no I/O but one look.

In a clone (and an editable install) the templates, the site sources and
mkdocs.yml sit at the repository's top level beside the package. A wheel
carries copies of them inside the package, as generator/resources/ (see
setup.py), so an installed tool works from any folder.
"""
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
PROJECT_ROOT = PACKAGE_DIR.parent          # the clone's root; meaningless in an installed wheel
_BUNDLED = PACKAGE_DIR / "resources"
RESOURCES_DIR = _BUNDLED if _BUNDLED.is_dir() else PROJECT_ROOT
TEMPLATES_DIR = RESOURCES_DIR / "templates"
ICONS_DIR = TEMPLATES_DIR / "icons"
SITE_SOURCES_DIR = RESOURCES_DIR / "site"
MKDOCS_CONFIG = RESOURCES_DIR / "mkdocs.yml"
# The repository's example game (a game folder of its own); only in a clone.
DEFAULT_DATA_DIR = PROJECT_ROOT / "data"
DEFAULT_OUT_DIR = PROJECT_ROOT / "output"
