# Packaged installer (docs/packaging.md): a PyInstaller one-folder bundle in dist/memdesk/
# and a Debian package in dist/. Included from the Makefile, which defines BIN and STAMP.
PYINSTALLER_REQ := pyinstaller>=6.10,<7

# The user guide goes into the resources, so Help → User guide opens it with no network.
GUIDE_DIR := resources/guide

package: $(STAMP)
	$(BIN)/python -m mkdocs build --strict --quiet --site-dir $(GUIDE_DIR)
	$(BIN)/python -m pip install --quiet '$(PYINSTALLER_REQ)'
	$(BIN)/python -m PyInstaller --noconfirm --clean --log-level WARN \
		--distpath dist --workpath build/pyinstaller packaging/pyinstaller/memdesk.spec
	PYTHON=$(BIN)/python packaging/linux/build_deb.sh

package-test: package
	PYTHON=$(BIN)/python packaging/linux/package_test.sh
