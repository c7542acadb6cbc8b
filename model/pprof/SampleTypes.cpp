#include "pprof/SampleTypes.h"

namespace qflame {

int findExactSampleType(const Profile &p, std::string_view type, std::string_view unit)
{
    for (size_t i = 0; i < p.sampleTypes.size(); ++i)
        if (p.str(p.sampleTypes[i].type) == type && p.str(p.sampleTypes[i].unit) == unit)
            return int(i);
    return -1;
}

std::string sampleTypeList(const Profile &p)
{
    std::string list;
    for (size_t i = 0; i < p.sampleTypes.size(); ++i)
        list += (i ? ", " : "") + p.typeName(i) + "/" + p.unitName(i);
    return list.empty() ? "none" : list;
}

std::string noSuchSampleType(const Profile &p, std::string_view spec)
{
    return "no sample type '" + std::string(spec) + "' in " + p.sourceName + " (it has: " + sampleTypeList(p) + ")";
}

}   // namespace qflame
