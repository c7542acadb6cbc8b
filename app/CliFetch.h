// URLs where the verbs expect a FILE (`qflame top http://host:6060/debug/pprof/heap`): the options that say how to
// fetch them (the verb table's forUrls options), the qryn client's names for the same things. qflame-gui registers
// it (ServerVerbs::fetch); `qflame` hands a command line that names a URL to qflame-gui, as it hands it the verbs
// that ask a server.
#pragma once

#include "VerbTable.h"

#include <string>
#include <vector>

namespace qflame {

// Makes URL FILEs read with the fetch options the arguments give. A wrong option is a usage error (CliExit).
void installFetchOptions(const ParsedArgs &args);
// The window's command line (files and URLs): installs its fetch options as installFetchOptions does and returns
// the arguments without them.
std::vector<std::string> takeFetchOptions(const std::vector<std::string> &args);

}   // namespace qflame
