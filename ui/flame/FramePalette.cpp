#include "flame/FramePalette.h"

#include <algorithm>
#include <cstdint>

namespace qflame {

QStringView packageOf(QStringView name)
{
    const qsizetype slash = name.lastIndexOf(QLatin1Char('/'));
    const qsizetype from = slash < 0 ? 0 : slash;
    qsizetype end = name.size();
    const qsizetype dot = name.indexOf(QLatin1Char('.'), from);
    const qsizetype colons = name.indexOf(QLatin1String("::"), from);
    if (dot > 0)
        end = dot;
    if (colons > 0 && colons < end)
        end = colons;
    return name.left(end);
}

static uint64_t stableKeyHash(QStringView key)
{
    // FNV-1a over the UTF-16 code units, then a 64-bit finalizer so the low bits the palette uses are mixed.
    // Not qHash: given a seed it mixes in a random one chosen per process, which gave every package another
    // colour on every start.
    uint64_t h = 0xcbf29ce484222325ull;
    for (const QChar c : key) {
        h ^= c.unicode();
        h *= 0x100000001b3ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

QColor colorForKey(QStringView key, bool colorBlindSafe, bool cool)
{
    const uint64_t h = stableKeyHash(key);
    if (colorBlindSafe) {
        // Okabe & Ito's qualitative palette, minus black, lightened for labels.
        static const QRgb okabeIto[] = {0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7};
        return QColor(okabeIto[h % std::size(okabeIto)]).lighter(135);
    }
    if (cool)   // mappings: blue-green hues, so the scheme is told apart from the package one at a glance
        return QColor::fromHsv(160 + int(h % 70), 90 + int((h >> 8) % 80), 200 + int((h >> 16) % 50));
    return QColor::fromHsv(int(h % 50), 150 + int((h >> 8) % 70), 200 + int((h >> 16) % 50));
}

QColor heatColor(double selfShare, bool colorBlindSafe)
{
    const double s = std::clamp(selfShare, 0.0, 1.0);
    if (colorBlindSafe)   // light to dark blue: lightness alone carries the value
        return QColor::fromHsl(210, 160, int(235 - 130 * s));
    return QColor::fromHsv(int(55 - 55 * s), int(60 + 195 * s), 245);
}

QColor dimmed(const QColor &c, const QColor &background)
{
    // Mix 25% of the colour, desaturated, into the background: present but clearly not a match.
    const int grey = qGray(c.rgb());
    auto mix = [](int a, int b) { return (a + 3 * b) / 4; };
    return QColor(mix(grey, background.red()), mix(grey, background.green()), mix(grey, background.blue()));
}

}   // namespace qflame
