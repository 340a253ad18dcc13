"""The colour science the checks judge by (`pnp.colours`), against published numbers: the 34
CIEDE2000 test pairs of Sharma, Wu and Dalal (2005), WCAG 2.1's contrast ratios, and the
Machado, Oliveira and Fernandes (2009) simulation matrices."""

from __future__ import annotations

import pytest

from pnp.colours import (
    MACHADO_2009,
    ciede2000,
    contrast_ratio,
    difference,
    lab,
    least_difference,
    seen,
    text_contrast_needed,
    tint,
    tint_of,
)

# Sharma, Wu & Dalal (2005), Table 1: L*a*b* of each pair and its ΔE00, to four decimals. The
# pairs probe the hue-angle wrap, the mean hue across 0°/360°, the blue rotation term and
# near-neutral colours, where implementations go wrong.
SHARMA_2005 = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, 2.8361, -74.0200), (50.0000, 0.0000, -82.7485), 3.4412),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -1.1848, -84.8006), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, -0.9009, -85.5211), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, -1.0000, 2.0000), (50.0000, 0.0000, 0.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0010), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0012), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0010, -2.4900), 4.8045),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0011, -2.4900), 4.7461),
    ((50.0000, 2.5000, 0.0000), (50.0000, 0.0000, -2.5000), 4.3065),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((50.0000, 2.5000, 0.0000), (58.0000, 24.0000, 15.0000), 19.4535),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.1736, 0.5854), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2972, 0.0000), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 1.8634, 0.5757), 1.0000),
    ((50.0000, 2.5000, 0.0000), (50.0000, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize("one, other, delta", SHARMA_2005)
def test_ciede2000_gives_the_published_differences_both_ways(one, other, delta):
    assert ciede2000(one, other) == pytest.approx(delta, abs=5e-5)
    assert ciede2000(other, one) == pytest.approx(delta, abs=5e-5)


def test_srgb_to_lab_gives_the_published_coordinates():
    assert lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert lab("#000000") == pytest.approx((0.0, 0.0, 0.0), abs=0.01)
    assert lab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.01)  # sRGB red, D65
    assert lab("#0000ff") == pytest.approx((32.30, 79.19, -107.86), abs=0.01)


def test_contrast_ratios_are_wcags():
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.005)  # WCAG's least grey on white for AA
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)
    assert text_contrast_needed(9, bold=False) == 4.5
    assert text_contrast_needed(14, bold=True) == text_contrast_needed(18, bold=False) == 3.0
    assert text_contrast_needed(14, bold=False) == 4.5


def test_the_simulations_are_machados_at_severity_one():
    assert MACHADO_2009["deuteranopia"][0] == (0.367322, 0.860646, -0.227968)
    assert MACHADO_2009["protanopia"][1] == (0.114503, 0.786281, 0.099216)
    assert MACHADO_2009["tritanopia"][2] == (0.004733, 0.691367, 0.303900)
    for vision, rows in MACHADO_2009.items():  # each row sums to 1: white and greys stay as they are
        assert [sum(row) for row in rows] == pytest.approx([1, 1, 1], abs=2e-5)
        assert seen("#ffffff", vision) == "#ffffff" and seen("#808080", vision) == "#808080"
    assert seen("#d62728", "normal") == "#d62728"


def test_red_and_green_that_differ_to_most_eyes_look_alike_with_deuteranopia():
    red, green = "#d62728", "#2ca02c"  # Акционер's old red and green
    assert difference(red, green) == pytest.approx(71.8, abs=0.1)
    assert difference(red, green, "deuteranopia") == pytest.approx(4.8, abs=0.1)
    assert least_difference(red, green) == (pytest.approx(4.8, abs=0.1), "deuteranopia")
    okabe_ito = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7"]
    assert min(least_difference(a, b)[0] for a in okabe_ito for b in okabe_ito if a < b) > 11  # made for it


def test_a_tint_is_recognised_as_its_colour_mixed_with_white():
    assert tint("#56b4e9", 0.5) == "#abdaf4"
    assert tint_of("#abdaf4", "#56b4e9") == pytest.approx(0.5, abs=0.01)
    assert tint_of("#56b4e9", "#56b4e9") == pytest.approx(1.0)
    assert tint_of("#c7c7c7", "#000000") == pytest.approx(0.22, abs=0.01)  # a black company's grey row
    assert tint_of("#abdaf4", "#0072b2") is None  # another blue
    assert tint_of("#ffffff", "#ffffff") == 1.0 and tint_of("#f0f0f0", "#ffffff") is None
