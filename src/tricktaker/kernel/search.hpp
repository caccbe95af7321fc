// The searches: ISMCTS (as tricktaker.bots.ismcts writes it) and PIMC-style flat
// rollouts, over states sampled by the void-aware determinizer.
#pragma once

#include <memory>
#include <vector>

#include "core.hpp"
#include "determinize.hpp"

namespace tk {

// What one seat knows at a decision: the public state (its hidden hands empty), its own
// hand, and what the determinizer and the bid model need.
struct World {
    const Config *cfg;
    State public_state;
    int me;
    std::unique_ptr<Determinizer> det;
    std::unique_ptr<SplitSampler> split; // used instead of det where given
    uint64_t played[MAXP] = {}; // cards each seat has played this hand
    // Cards known to be with a hidden seat now (a hook game's facts): added to the cards
    // the determinizer samples for it, which are that many fewer.
    uint64_t fixed[MAXP] = {};
    bool has_fixed = false;
    // Seats whose simultaneous bid is made but hidden: each sample guesses it with the
    // rollout policy's bid on the sampled cards (as the Python determinizer does).
    std::vector<int> guess_seats;
    // The bid model (tricktaker.bots.search_ohhell._Sampler.weight): empty = off.
    std::vector<double> value;  // per card
    std::vector<int> weight_seats;
    double scale = 0.0;
    double floor = 0.0;

    void sample(Rng &rng, State &out) const;
    double weight(const State &st) const;
};

struct SearchParams {
    long iterations = 400;
    double time_budget = -1.0; // seconds; < 0: none
    double exploration = 0.3;
    double noise = 0.5;
    // How the other seats move in the tree: 0 by UCB over their moves, 1 by the rollout
    // policy, 2 as in the rollouts (at random with the chance ``noise``, else the policy).
    int model_opponents = 0;
    bool weighted = true;
    // How much the other seats' results count against a seat's own: each seat's reward
    // is its result less ``rivalry`` times the mean of the others' (not in a cooperative
    // game, where every seat has the same result).
    double rivalry = 0.0;
};

struct RootStat {
    int move;
    int visits;
    double mean;
};

struct SearchResult {
    int move = -1;
    long iterations = 0;
    std::vector<RootStat> root;
};

// Flat rollouts (as tricktaker.bots.pimc.choose_by_rollouts): every move is played out
// on ``first`` sampled deals, then the best ``keep`` on more deals until about
// ``rollouts`` rollouts are spent (the same deals for every move); the best weighted
// total wins. ``iterations`` of the result counts the rollouts.
SearchResult flat_rollouts(const World &world, const std::vector<int> &moves, long first,
                           long keep, long rollouts, double noise, double time_budget,
                           uint64_t seed);

// Chooses among ``moves`` (the seat's legal moves, in the engine's order).
SearchResult ismcts(const World &world, const std::vector<int> &moves, const SearchParams &p,
                    uint64_t seed);

} // namespace tk
