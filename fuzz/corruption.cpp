// The corruption test: every corpus file truncated at 64 offsets and with a bit flipped at 64 random places
// (fixed seed), each case read and built like the window does (Exercise.h). Every case must end in a one-line
// error or a valid tree; a crash or a sanitizer report aborts the process, which fails the ctest. For compressed
// files the same is done to the decompressed payload too, since a flipped bit in gzip mostly just fails the CRC
// and never reaches the protobuf parser.
//
//   corruption [--max-bytes N] FILE|DIR...      (directories: their regular files, not recursive)
//
// Files larger than --max-bytes (default 4 MB, stored or decompressed) are skipped with a printed note: under
// ASan one case of a 40 MB profile takes seconds, and 128 of them per layer would blow CI's time budget.
#include "Exercise.h"
#include "formats/ProfileInput.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using qflame::fuzz::Outcome;

namespace {

constexpr int kTruncations = 64;
constexpr int kFlips = 64;

struct Tally {
    long cases = 0, trees = 0, errors = 0, filterErrors = 0, badMessages = 0;
    void add(const Tally &o)
    {
        cases += o.cases; trees += o.trees; errors += o.errors;
        filterErrors += o.filterErrors; badMessages += o.badMessages;
    }
};

void runCase(const std::string &bytes, Tally *t, const std::string &label)
{
    std::string message;
    const Outcome o = qflame::fuzz::exerciseProfile(bytes, &message);
    ++t->cases;
    if (o == Outcome::Tree) {
        ++t->trees;
        return;
    }
    ++(o == Outcome::ProfileError ? t->errors : t->filterErrors);
    // "A clear error": one non-empty line, as the CLI and the window's status bar show it.
    if (message.empty() || message.find('\n') != std::string::npos) {
        ++t->badMessages;
        std::printf("  BAD MESSAGE (%s): [%s]\n", label.c_str(), message.c_str());
    }
}

// 64 truncations spread evenly over [0, size) (offset 0 is the empty input) and 64 single-bit flips.
Tally corrupt(const std::string &bytes, std::mt19937_64 &rng, const std::string &label)
{
    Tally t;
    for (int i = 0; i < kTruncations; ++i) {
        const size_t cut = bytes.size() * size_t(i) / kTruncations;
        runCase(bytes.substr(0, cut), &t, label + " cut@" + std::to_string(cut));
    }
    if (bytes.empty())
        return t;
    for (int i = 0; i < kFlips; ++i) {
        std::string copy = bytes;
        const size_t bit = std::uniform_int_distribution<size_t>(0, bytes.size() * 8 - 1)(rng);
        copy[bit / 8] = char(uint8_t(copy[bit / 8]) ^ (1u << (bit % 8)));
        runCase(copy, &t, label + " flip@" + std::to_string(bit));
    }
    return t;
}

std::string readFile(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}   // namespace

int main(int argc, char **argv)
{
    uint64_t maxBytes = uint64_t(4) << 20;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--max-bytes") == 0 && i + 1 < argc) {
            maxBytes = std::stoull(argv[++i]);
            continue;
        }
        const fs::path p = argv[i];
        if (fs::is_directory(p)) {
            std::vector<fs::path> inDir;
            for (const auto &e : fs::directory_iterator(p))
                if (e.is_regular_file())
                    inDir.push_back(e.path());
            std::sort(inDir.begin(), inDir.end());   // a stable order, so the seeded flips are reproducible
            files.insert(files.end(), inDir.begin(), inDir.end());
        } else if (fs::is_regular_file(p)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "corruption: no such file or directory: %s\n", argv[i]);
            return 2;
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: corruption [--max-bytes N] FILE|DIR...\n");
        return 2;
    }

    std::mt19937_64 rng(20261129);   // fixed seed: the same cases on every run
    Tally total;
    int used = 0, skipped = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const fs::path &f : files) {
        const std::string name = f.filename().string();
        const std::string bytes = readFile(f);
        if (bytes.size() > maxBytes) {
            std::printf("skip %s: %zu bytes > --max-bytes %llu\n", name.c_str(), bytes.size(),
                        (unsigned long long)maxBytes);
            ++skipped;
            continue;
        }
        std::vector<std::pair<std::string, std::string>> layers{{"stored", bytes}};
        const auto c = qflame::sniffCompression(bytes);
        if (c != qflame::Compression::None) {
            try {
                std::string raw = qflame::decompress(bytes, c, maxBytes);
                layers.emplace_back("decompressed", std::move(raw));
            } catch (const qflame::ProfileError &e) {
                std::printf("note %s: payload not corrupted separately: %s\n", name.c_str(), e.what());
            }
        }
        ++used;
        for (const auto &[layer, data] : layers) {
            const Tally t = corrupt(data, rng, name + " " + layer);
            std::printf("%-50s %-12s %5ld cases: %5ld trees, %5ld errors, %3ld filter errors\n", name.c_str(),
                        layer.c_str(), t.cases, t.trees, t.errors, t.filterErrors);
            std::fflush(stdout);
            total.add(t);
        }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("corruption: %d files (%d skipped), %ld cases: %ld valid trees, %ld ProfileErrors, %ld FilterErrors, "
                "%ld bad messages, 0 crashes, %.1f s\n",
                used, skipped, total.cases, total.trees, total.errors, total.filterErrors, total.badMessages, secs);
    return total.badMessages == 0 && used > 0 ? 0 : 1;
}
