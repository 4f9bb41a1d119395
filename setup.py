"""The package list pyproject.toml cannot glob: every folder under the product's top folders, as `adp2p.<folder>...`
(pyproject.toml maps each top folder to its `adp2p.` name; a game's new folders are found here, nothing to list)."""

from setuptools import find_namespace_packages, setup

TOP = ("engine", "games", "crypto", "p2p", "cli")

setup(
    packages=[
        f"adp2p.{name}"
        for name in find_namespace_packages(include=[*TOP, *(f"{t}.*" for t in TOP)], exclude=["*__pycache__*"])
    ]
)
