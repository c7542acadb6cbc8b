// The report layer: each verb's numbers as one result the model computes, and its renderings (text for people,
// TSV, CSV, JSON) written here, so that `qflame VERB` and the window's views read the same numbers and the CLI
// only parses options and prints. docs/json.md is the JSON schema.
#pragma once

#include <functional>
#include <string_view>

namespace qflame {

// Where a rendering goes, in pieces (the CLI writes them to stdout as they come: a top table of 100,000 rows is
// never one string).
using TextSink = std::function<void(std::string_view)>;

}   // namespace qflame
