"""Dealer's bookkeeping for the family of 31 card games."""

import os

# numpy's BLAS (OpenBLAS) would run the glyph models' small matrix products on a thread per core
# and leave those threads spinning after each product: measured, it more than doubled the CPU the
# camera reader takes per frame (26 against 11 ms on cards-real) on this 2-core machine, for no
# gain in time. One BLAS thread, unless the user chose otherwise; set before numpy is imported.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
