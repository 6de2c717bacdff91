// The replay player through maul3d.hpp's m3::ReplayPlayer (what the Unreal plugin's
// logic uses): cpp_replay DEMO HASHES OTHER STEP, as replay.c takes them. Seeks every
// step and compares with `m3replay hashes`, scrambled seeks, verify, a damaged copy,
// moves, diff at the step `m3replay diff` prints. Built with -std=c++17 -fno-exceptions
// -fno-rtti -Wall -Werror.
#include "maul3d.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            std::fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__,   \
                         #cond, m3::LastError());                                         \
            std::exit(1);                                                                 \
        }                                                                                 \
    } while (0)

std::vector<uint8_t> ReadFile(const char* path)
{
    std::vector<uint8_t> bytes;
    FILE* f = std::fopen(path, "rb");
    CHECK(f != nullptr);
    int c;
    while ((c = std::fgetc(f)) != EOF) bytes.push_back(static_cast<uint8_t>(c));
    std::fclose(f);
    return bytes;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: cpp_replay DEMO HASHES OTHER STEP\n");
        return 2;
    }
    const std::vector<uint8_t> file = ReadFile(argv[1]);
    const std::vector<uint8_t> otherFile = ReadFile(argv[3]);
    const uint64_t partStep = std::strtoull(argv[4], nullptr, 10);
    const int64_t len = static_cast<int64_t>(file.size());

    m3::ReplayPlayer player(file.data(), len);
    CHECK(player && player.OpenResult() == m3_success);
    const uint64_t steps = player.StepCount();
    CHECK(steps > 0 && player.CurrentStep() == 0);

    std::vector<uint64_t> want(steps + 1, 0);
    std::vector<bool> have(steps + 1, false);
    want[0] = player.Hash();
    FILE* f = std::fopen(argv[2], "r");
    CHECK(f != nullptr);
    unsigned long long s = 0, h = 0;
    while (std::fscanf(f, "%llu %llx", &s, &h) == 2) {
        CHECK(s <= steps);
        CHECK(s != 0 || h == want[0]);
        want[s] = h;
        have[s] = true;
    }
    std::fclose(f);
    for (uint64_t i = 1; i <= steps; ++i) CHECK(have[i]);

    for (uint64_t i = 0; i <= steps; ++i) {
        CHECK(player.Seek(i) == m3_success);
        uint64_t got = 1;
        CHECK(player.GetHash(&got) == m3_success && got == want[i]);
    }
    bool moved = true;
    CHECK(player.StepForward(&moved) == m3_success && !moved);
    CHECK(player.StepBack(&moved) == m3_success && moved && player.Hash() == want[steps - 1]);

    // Scrambled seeks on a player with its own keyframes, moved into place.
    m3::ReplayPlayer scrubber;
    CHECK(!scrubber && scrubber.StepCount() == 0);
    scrubber = m3::ReplayPlayer(file.data(), len, 11);
    CHECK(scrubber && scrubber.KeyframeEvery() == 11);
    // Indexed ahead first, the way a viewer does it a little every frame.
    bool done = false;
    while (!done) {
        CHECK(scrubber.IndexAhead(25, &done) == m3_success && scrubber.CurrentStep() == 0);
    }
    CHECK(scrubber.IndexedThrough() == steps);
    uint32_t lcg = 99;
    for (int i = 0; i < 200; ++i) {
        lcg = lcg * 1664525u + 1013904223u;
        const uint64_t at = (lcg >> 8) % (steps + 1);
        CHECK(scrubber.Seek(at) == m3_success && scrubber.Hash() == want[at]);
    }
    CHECK(scrubber.Seek(steps + 1) == m3_errorArgument);

    uint64_t recorded = 0, replayed = 1;
    CHECK(scrubber.Verify(&recorded, &replayed) == m3_success);
    CHECK(recorded == replayed && recorded == scrubber.RecordedFinalHash());

    // A damaged copy opens nothing; the empty player answers calls without crashing.
    std::vector<uint8_t> bad = file;
    bad[bad.size() / 3] ^= 0x01;
    m3::ReplayPlayer damaged(bad.data(), static_cast<int64_t>(bad.size()));
    CHECK(!damaged && damaged.OpenResult() == m3_errorFormat);
    CHECK(damaged.Seek(0) == m3_errorArgument && damaged.Hash() == 0 && damaged.BodyCount() == 0);

    // Bodies at the current step.
    CHECK(player.Seek(steps / 2) == m3_success);
    const int32_t count = player.BodyCount();
    CHECK(count > 0);
    std::vector<m3ReplayBody> bodies(static_cast<size_t>(count));
    int32_t got = 0;
    CHECK(player.Bodies(bodies.data(), count, &got) == m3_success && got == count);
    m3ReplayBody one;
    CHECK(player.Body(bodies.back().id, &one) == m3_success && one.position.y == bodies.back().position.y);

    // Diff: the step m3replay prints; the players move there.
    m3::ReplayPlayer other(otherFile.data(), static_cast<int64_t>(otherFile.size()));
    CHECK(other);
    m3BodyDiff rows[4];
    m3ReplayParting parting;
    CHECK(player.Diff(other, rows, 4, &parting) == m3_success);
    CHECK(parting.kind == m3_replaysPart && parting.step == partStep && parting.hashA == want[partStep]);
    CHECK(player.CurrentStep() == partStep && other.CurrentStep() == partStep);
    CHECK(parting.rowCount >= 1 && rows[0].slot < 1u << 24);

    // Moving hands the player over; the moved-from one is empty.
    m3::ReplayPlayer taken(std::move(player));
    CHECK(taken && !player && taken.CurrentStep() == partStep);
    CHECK(taken.Reset() == m3_success && !taken);

    std::printf("cpp_replay: m3::ReplayPlayer seeks %llu steps with m3replay's hashes, 200 scrambled seeks, "
                "verify, a damaged copy refused, diff parts at step %llu\n",
                static_cast<unsigned long long>(steps), static_cast<unsigned long long>(partStep));
    return 0;
}
