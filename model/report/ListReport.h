// `qflame list` and `qflame diff --list`: a listing of source lines (source/SourceListing) as JSON. (Their text and
// TSV, with warnings on stderr beside, are still written by app/CliList.)
#pragma once

#include "source/SourceListing.h"

#include <string>

namespace qflame {

// {"report":"list","version":1,"comparison","sample_type","unit","total","after_total","noise_k","counts_known",
//  "files":[{function,file,read_file,found_in,error,flat,cum,...,"lines":[{line,text,flat,cum,...}]}]}
std::string listJson(const SourceListing &listing);

}   // namespace qflame
