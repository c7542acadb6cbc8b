// `qflame info`: what a profile holds (sample types with the default and their totals, counts, period, time,
// duration, drop/keep frames, comments), for people and as JSON.
#pragma once

#include "pprof/Profile.h"
#include "report/Report.h"

#include <string>

namespace qflame {

void writeInfoText(const Profile &p, const TextSink &out);
std::string infoJson(const Profile &p);

}   // namespace qflame
