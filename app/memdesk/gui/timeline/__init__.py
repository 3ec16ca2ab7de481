"""The expiry timeline: pure geometry and rows, and the canvas that paints them."""
