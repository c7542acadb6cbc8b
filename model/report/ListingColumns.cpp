#include "report/ListingColumns.h"

#include "pprof/PprofLabels.h"

namespace qflame {

std::string padLeft(const std::string &s, size_t width)
{
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string valueOrDot(int64_t v, const std::string &unit)
{
    return v == 0 ? "." : pprofScaledLabel(v, unit);
}

std::string signedValue(int64_t v, const std::string &unit)
{
    return v == 0 ? "." : (v > 0 ? "+" : "") + pprofScaledLabel(v, unit);
}

}   // namespace qflame
