"""Fit: how much of the data's text each box of fixed size holds, measured
from the shipped fonts before anything renders, so `check` refuses what
would not print.

Imports core/, systems/, game/ and the shared render modules (options.py);
never the PDF, site, pack or cache rooms: a measurement renders nothing."""
