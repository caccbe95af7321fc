// An exact endgame: the last few tricks of one complete deal (every hand known) solved
// under max-n, as a double-dummy solver solves a bridge deal.
//
// Every seat to play, knowing every hand, plays the legal card (the kernel's rules) that
// gives it the highest final reward of the hand (the search's reward: partners share
// one, and with ``rivalry`` a seat's reward is its result less that much of the others'
// mean, as the ISMCTS backs up); among cards of equal value it plays the lowest card id.
// Positions at the start of a trick are remembered (the same cards left, the same seat
// to lead, and the same tricks taken since the position solved, or with points per trick
// the same winner of each of those tricks), so a position reached by two orders of the
// same cards is solved once.
#pragma once

#include <cstdint>
#include <vector>

#include "core.hpp"

namespace tk {

// The most tricks left that the solver takes (its memo keys pack each seat's tricks
// since the position solved in 3 bits and each trick's winner in 4).
constexpr int MAX_ENDGAME_TRICKS = 7;
// The positions (nodes) an entry point's solve may visit before it gives up.
constexpr long ENDGAME_NODE_LIMIT = 1L << 22;
// The nodes one endgame inside the ISMCTS may visit; past it the rollout plays on (a
// larger solve costs as much as thousands of rollouts).
constexpr long SEARCH_ENDGAME_NODES = 1L << 14;

// The search's reward of each seat, made its result less ``rivalry`` times the mean of the
// other seats' (unchanged with rivalry 0 or in a cooperative game).
void rival_rewards(const Config &cfg, double rivalry, double *reward);

// Whether ``st`` is a card play position with at most ``most_tricks`` tricks left in which
// every seat in the tricks holds exactly the cards it still has to play.
bool endgame_fits(const Config &cfg, const State &st, int most_tricks);

class Endgame {
  public:
    Endgame(const Config &cfg, double rivalry, long node_limit);

    // Solves ``st`` (a position that endgame_fits with MAX_ENDGAME_TRICKS): each seat's
    // reward under max-n in ``out`` and the card the seat to play plays in ``move``
    // (when not null). False when the node limit ran out first (``out`` is then unset).
    bool solve(const State &st, double *out, int *move = nullptr);
    // The nodes (positions) the last solve visited.
    long nodes() const { return nodes_; }

  private:
    struct Entry {
        uint64_t cards = 0;   // the cards still in the hands
        uint64_t summary = 0; // the tricks since the root (or their winners) and the leader
        uint32_t stamp = 0;   // the solve that stored it (0: never)
    };
    void value(const State &st, uint64_t winners, double *out, int *move);
    uint64_t summary(const State &st, uint64_t winners) const;
    const double *find(uint64_t cards, uint64_t summary) const;
    void store(uint64_t cards, uint64_t summary, const double *values);
    void grow();

    const Config &cfg_;
    double rivalry_;
    long node_limit_;
    long nodes_ = 0;
    bool exhausted_ = false;
    bool by_winner_ = false; // points per trick: remember each trick's winner
    State root_{};
    uint32_t stamp_ = 0;
    size_t used_ = 0;
    std::vector<Entry> entries_;
    std::vector<double> values_; // per entry, one reward per seat
};

} // namespace tk
