# Packaged installer (docs/packaging.md): a PyInstaller one-folder bundle in dist/memdesk/
# and a Debian package in dist/. Included from the Makefile, which defines BIN, STAMP, QUIETLY
# and PIP_INSTALL.
PYINSTALLER_REQ := pyinstaller>=6.10,<7

# The user guide goes into the resources, so Help → User guide opens it with no network.
GUIDE_DIR := resources/guide

# Quiet but for a line when it starts, what it built where, and any step that fails; a step
# that runs long (PyInstaller) says every 15 s that it still runs (packaging/quietly.sh).
package: $(STAMP) $(MEANING_MODEL)
	@echo "Building the Linux package: the guide, the bundle, then the .deb (a few minutes)"
	@$(QUIETLY) $(BIN)/python -m mkdocs build --strict --quiet --site-dir $(GUIDE_DIR)
	@$(PIP_INSTALL) '$(PYINSTALLER_REQ)'
	@$(QUIETLY) $(BIN)/python -m PyInstaller --noconfirm --clean --log-level WARN \
		--distpath dist --workpath build/pyinstaller packaging/pyinstaller/memdesk.spec
	@PYTHON=$(BIN)/python packaging/linux/build_deb.sh

package-test: package
	PYTHON=$(BIN)/python packaging/linux/package_test.sh
