// `qflame heatmap FILE`: the subsecond-offset heatmap of a profile with sample times (model/time/Heatmap.h).
#pragma once

#include <string>
#include <vector>

namespace qflame {


}   // namespace qflame
