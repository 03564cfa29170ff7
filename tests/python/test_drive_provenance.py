"""ziosim.drives() counts each drive's sourced and estimated figures as its TOML file has them."""

import tomllib

import ziosim


def _file_figures(path):
    """{key: (has source, has estimated)} of the drive file's [hdd] or [ssd] table, read with tomllib."""
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    return {key: (bool(fig.get("source")), bool(fig.get("estimated"))) for key, fig in doc[doc["kind"]].items()}


def test_every_catalog_figure_has_source_or_estimated():
    for row in ziosim.drives().itertuples():
        for key, (source, estimated) in _file_figures(row.file).items():
            assert source != estimated, f"{row.file}: {key} needs exactly one of source, estimated"


def test_counts_are_the_drive_files_own():
    drives = ziosim.drives()
    assert len(drives) > 0
    for row in drives.itertuples():
        figures = _file_figures(row.file).values()
        assert row.figures_sourced == sum(1 for source, _ in figures if source), row.name
        assert row.figures_estimated == sum(1 for _, estimated in figures if estimated), row.name
        assert row.figures_sourced + row.figures_estimated == len(ziosim.drive_values(row.name)), row.name
