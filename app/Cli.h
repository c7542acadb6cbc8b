// Headless command-line verbs.
#pragma once

#include <string>
#include <vector>

namespace qflame {

struct CliExit {
    int code;
};

const char *cliUsage();
bool isCliVerb(const std::string &word);
// Runs a verb with its arguments; returns the process exit status (0 ok, 1 usage, 2 bad input).
int runCli(const std::string &verb, const std::vector<std::string> &args);

}   // namespace qflame
