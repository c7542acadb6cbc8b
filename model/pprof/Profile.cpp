#include "pprof/Profile.h"

#include <charconv>

namespace qflame {

int Profile::effectiveDefaultType() const
{
    if (defaultSampleType >= 0)
        return defaultSampleType;
    return sampleTypes.empty() ? -1 : int(sampleTypes.size()) - 1;
}

int Profile::findSampleType(std::string_view spec) const
{
    for (size_t i = 0; i < sampleTypes.size(); ++i)
        if (typeName(i) == spec || typeName(i) + "/" + unitName(i) == spec)
            return int(i);
    int index = -1;
    auto [end, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), index);
    if (ec == std::errc() && end == spec.data() + spec.size() && index >= 0 && size_t(index) < sampleTypes.size())
        return index;
    return -1;
}

int64_t Profile::total(size_t type) const
{
    int64_t sum = 0;
    const size_t n = sampleTypes.size();
    for (size_t i = type; i < values.size(); i += n)
        sum += values[i];
    return sum;
}

}   // namespace qflame
