#include "tree/PprofRegex.h"

namespace qflame {

Regex compileRequiredPprofRegex(const std::string &pattern, const char *option)
{
    Regex re(pattern);
    if (!re.isValid())
        throw FilterError(std::string("parsing ") + option + " regexp: " + re.errorString() + " at offset " +
                          std::to_string(re.errorOffset()));
    return re;
}

std::optional<Regex> compilePprofRegex(const std::string &pattern, const char *option)
{
    if (pattern.empty())
        return std::nullopt;
    return compileRequiredPprofRegex(pattern, option);
}

}   // namespace qflame
