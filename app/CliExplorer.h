// The window's command line for a server: `qflame --url URL --type ID [--query SEL] [--from T --to T] [server
// options]` opens the explorer tab with that query loaded, `qflame --connection NAME [--type ID ...]` a saved
// connection (its last query unless --type gives one). `qflame` hands both to qflame-gui, as it hands it any
// command line that is not a verb.
#pragma once

#include "explorer/QrynExplorer.h"

#include <string>
#include <vector>

namespace qflame {

namespace qryn {
class ConnectionStore;
}

// Whether the window's arguments name a server (--url or --connection) rather than files.
bool wantsExplorer(const std::vector<std::string> &args);

// The explorer's start from these arguments, saved connections looked up in `store`. A wrong argument (a bad
// URL, an unknown connection, --url without --type, ...) prints one line "qflame: ..." on standard error and
// throws CliExit{2}: no window opens.
qryn::QrynExplorer::Start parseExplorerArgs(const std::vector<std::string> &args, const qryn::ConnectionStore &store);

}   // namespace qflame
