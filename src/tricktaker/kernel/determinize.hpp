// The void-aware determinizer: hidden cards dealt uniformly among the deals that respect
// what the observing seat knows (the cards each seat holds, the suits it showed void in).
//
// The same method as tricktaker.bots.determinize.CardPlacement: the unknown cards fall
// into classes (effective suits 0-4); seats with the same known voids share a bucket;
// a dynamic programme counts, per class, the deals for each way of spreading the class
// over the buckets. The counts are computed once per decision and kept as a table of
// choices, so each sample is a few weighted choices and partial shuffles. Counts are
// kept in double precision (the Python sampler uses exact integers): the choice
// probabilities agree to about 1e-15.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core.hpp"

namespace tk {

struct Determinizer {
    // ``hidden``: seats whose cards are sampled; ``counts``: cards each holds now;
    // ``voids``: per seat, a bit mask of classes (0-4) it cannot hold; ``unknown``: the
    // cards not seen; ``classes``: each card's class (its effective suit).
    Determinizer(int players, const std::vector<int> &hidden, const int *counts,
                 const uint32_t *voids, uint64_t unknown, const int8_t *classes);

    // Each hidden seat's sampled cards, written into ``held`` (other seats untouched).
    void sample(Rng &rng, uint64_t *held) const;

    static constexpr int NODE_LIMIT = 200000;

  private:
    struct Option {
        int next; // node index, or -1 at the end
        double cumulative;
        uint8_t take[MAXP]; // cards of the class each bucket takes
    };
    struct Node {
        std::vector<Option> options;
        double total = 0.0;
    };
    int players_;
    std::vector<int> free_seats_;            // hidden seats without a known void
    std::vector<std::vector<int>> groups_;   // seats sharing one bucket, per bucket
    std::vector<uint32_t> group_voids_;
    std::vector<std::vector<int>> class_cards_;
    std::vector<std::vector<int>> allowed_;  // per class: the buckets that may take it
    std::vector<int> left_;                  // cards in classes k.. (k = index)
    std::vector<Node> nodes_;
    std::vector<std::unordered_map<std::string, int>> memo_;
    std::vector<double> ways_;
    int counts_[MAXP];
    int start_ = -1;

    int node(int k, const std::string &room);
    void splits(int k, const std::string &room, size_t i, int rest, std::string &cur,
                double denom, std::vector<std::pair<std::string, double>> &out) const;
};

// Which of the unseen cards the first of two hidden seats holds (the second holds the
// rest), when the facts couple the cards of different classes (Pluck's hands after
// plucks the seat did not see): the game's own determinizer counts the consistent splits
// class by class and hands over its choices as a weighted graph. A node's options each
// lead to the next class's node (-1 after the last) and pick one of a list of card sets,
// uniformly; the option is chosen in proportion to its weight (the number of consistent
// completions), so the split is drawn as the game's determinizer draws it.
struct SplitSampler {
    struct Option {
        double cumulative;
        int next; // node index, or -1 after the last class
        int list; // index into lists
    };
    struct Node {
        std::vector<Option> options;
        double total = 0.0;
    };
    int first = -1, second = -1;
    uint64_t unknown = 0;
    std::vector<Node> nodes;                 // nodes[0] is the start
    std::vector<std::vector<uint64_t>> lists; // card sets the first seat may take

    void check() const; // every index in range, every node with an option
    void sample(Rng &rng, uint64_t *held) const;
};

} // namespace tk
