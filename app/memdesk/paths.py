"""Where Memdesk keeps things. No other module guesses a path.

Order of precedence: command-line option, environment variable, platform default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_DIR_NAME = "memdesk"
DB_FILE_NAME = "memdesk.sqlite3"
CONFIG_FILE_NAME = "config.toml"


@dataclass(frozen=True)
class Paths:
    data_dir: Path
    config_file: Path
    db_url: str
    log_dir: Path

    @property
    def db_file(self) -> Path | None:
        """The SQLite file behind ``db_url``, when it is a file."""
        prefix = "sqlite:///"
        if self.db_url.startswith(prefix) and ":memory:" not in self.db_url:
            return Path(self.db_url[len(prefix) :])
        return None

    def reopen_options(self) -> list[str]:
        """The global options that open this same store from a bare environment (no
        ``MEMDESK_*`` variables): what an assistant's set-up must carry to reach it.

        A server store's URL goes without its password, which stays in the keyring or PGPASSFILE.
        """
        defaults = resolve_paths(environ={})
        options: list[str] = []
        config_here = defaults.config_file
        if self.data_dir.resolve() != defaults.data_dir.resolve():
            options += ["--data-dir", str(self.data_dir)]
            config_here = self.data_dir / CONFIG_FILE_NAME
        if self.db_url != db_url_for(str(self.data_dir / DB_FILE_NAME)):
            options += ["--db", str(self.db_file) if self.db_file else url_without_password(self.db_url)]
        if self.config_file.resolve() != config_here.resolve():
            options += ["--config", str(self.config_file)]
        return options

    @property
    def backup_dir(self) -> Path:
        return self.data_dir / "backups"

    @property
    def meaning_cache(self) -> Path:
        """Vectors of stored texts for recall by meaning: derived, safe to delete."""
        return self.data_dir / "meaning-vectors.sqlite3"

    @property
    def default_files_dir(self) -> Path:
        return self.data_dir / "memory"


def db_url_for(value: str) -> str:
    """Accept a SQLAlchemy URL or a plain file path."""
    if "://" in value:
        return value
    return "sqlite:///" + str(Path(value).expanduser().resolve())


def url_without_password(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url)._replace(password=None).render_as_string(hide_password=False)


def resolve_paths(
    data_dir: str | None = None,
    db: str | None = None,
    config: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> Paths:
    env = os.environ if environ is None else environ
    data_value = data_dir or env.get("MEMDESK_DATA_DIR")
    if data_value:
        root = Path(data_value).expanduser().resolve()
        config_file = root / CONFIG_FILE_NAME
        log_dir = root / "logs"
    else:
        root = Path(platformdirs.user_data_dir(APP_DIR_NAME, appauthor=False))
        config_file = Path(platformdirs.user_config_dir(APP_DIR_NAME, appauthor=False)) / CONFIG_FILE_NAME
        log_dir = Path(platformdirs.user_log_dir(APP_DIR_NAME, appauthor=False))
    if config:
        config_file = Path(config).expanduser().resolve()
    db_value = db or env.get("MEMDESK_DB")
    db_url = db_url_for(db_value) if db_value else db_url_for(str(root / DB_FILE_NAME))
    return Paths(data_dir=root, config_file=config_file, db_url=db_url, log_dir=log_dir)
