"""Where Memdesk keeps things. No other module guesses a path.

Order of precedence: command-line option, environment variable, platform default.
"""

from __future__ import annotations

import os
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

    @property
    def backup_dir(self) -> Path:
        return self.data_dir / "backups"

    @property
    def default_files_dir(self) -> Path:
        return self.data_dir / "memory"


def db_url_for(value: str) -> str:
    """Accept a SQLAlchemy URL or a plain file path."""
    if "://" in value:
        return value
    return "sqlite:///" + str(Path(value).expanduser().resolve())


def resolve_paths(
    data_dir: str | None = None,
    db: str | None = None,
    config: str | None = None,
) -> Paths:
    env = os.environ
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
