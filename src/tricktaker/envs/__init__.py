"""Research interfaces: a fixed numeric encoding, PettingZoo and Gymnasium environments.

Needs the ``envs`` extra (``pip install 'tricktaker[envs]'``: numpy, PettingZoo,
Gymnasium); the rest of tricktaker never imports this package. See docs/envs.md.
"""
