"""Small widgets shared by several views."""
