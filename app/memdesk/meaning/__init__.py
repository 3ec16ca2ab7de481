"""Recall by meaning: a small learned sentence encoder (Universal Sentence Encoder Lite,
Apache-2.0, fetched by ``scripts/fetch_meaning_model.py``) that tells how close a question is
to a stored fact when they share no word ("Which gym am I at?" and "Goes to Planet Fitness").

``graph`` runs the model's TensorFlow.js graph with numpy, ``pieces`` splits text into its
vocabulary's word pieces, ``encoder`` turns texts into vectors, and ``cache`` keeps the vectors
of stored texts on disk so a prompt computes only its question's.
"""
