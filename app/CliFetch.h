// URLs where the verbs expect a FILE (`qflame top http://host:6060/debug/pprof/heap`): the options that say how to
// fetch them, the qryn client's names for the same things. qflame-gui registers it (ServerVerbs::fetch); `qflame`
// hands a command line that names a URL to qflame-gui, as it hands it the verbs that ask a server.
#pragma once

#include <string>
#include <vector>

// Usage lines for cliUsage(), a macro so that they concatenate with its string literal.
#define QFLAME_FETCH_USAGE \
    "URLs: wherever a FILE is expected, an http:// or https:// URL is fetched and read (go tool pprof's\n" \
    "  http://HOST:PORT/debug/pprof/profile?seconds=N (default 30), heap, allocs, goroutine, block, mutex,\n" \
    "  or any URL serving a profile), with these options (names as for a server):\n" \
    "  --user U --password-env VAR   HTTP basic auth; --token-env VAR: bearer token\n" \
    "  --ca-file PEM                 also trust these CA certificates (TLS is always verified)\n" \
    "  --timeout SECONDS             per URL (default: the profile's seconds plus 30)\n"

namespace qflame {

// Takes the fetch options out of a verb's arguments (when they name a URL and no --url) and makes URL FILEs read
// with them; returns the arguments left for the verb. A wrong option is a usage error (CliExit).
std::vector<std::string> takeFetchOptions(const std::vector<std::string> &args);

}   // namespace qflame
