// Names in the reports' line formats (TSV, the text tables): names may hold any byte, so backslash, tab, newline
// and carriage return are written as \\, \t, \n and \r, and a line is always one row.
#pragma once

#include <string>
#include <string_view>

namespace qflame {

void appendEscaped(std::string &out, std::string_view s);
std::string escapeField(std::string_view s);

}   // namespace qflame
