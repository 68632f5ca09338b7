"""Placeholder; replaced below."""
def documents(game):
    return []


def pages(game):
    return []
