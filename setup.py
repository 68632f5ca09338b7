"""Put the tool's templates, site sources and MkDocs configuration into the
wheel. They stay at the repository's top level (where people edit them);
this copies them into the built package as generator/resources/, which
generator/core/paths.py looks for first. Everything else is in pyproject.toml."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

RESOURCES = ("templates", "site", "mkdocs.yml")


class BuildWithResources(build_py):
    def run(self):
        super().run()
        if self.editable_mode:      # an editable install reads them from the clone
            return
        target = Path(self.build_lib) / "generator" / "resources"
        for name in RESOURCES:
            source = Path(__file__).parent / name
            if source.is_dir():
                shutil.copytree(source, target / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)


setup(cmdclass={"build_py": BuildWithResources})
