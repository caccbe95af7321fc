// Bidding from the trick distribution: a bid chosen by the score it is expected to make,
// the hand played out by the search's own card play on many sampled deals.
//
// For each sampled deal (the world's: the seats that bid before weigh it by the bid model,
// hidden simultaneous bids guessed) every legal bid is made and the hand played to its end
// by the rollout policy (the other seats at random with the chance ``noise``), the same
// deals and the same random numbers for every bid. Each bid gets the weighted distribution
// of the tricks the seat took with it and the mean of the search's reward (the ruleset's
// score table turned into the reward, less ``rivalry`` times the others' mean, as the
// ISMCTS backs up); the bid with the best mean reward wins. After a first round on
// ``first`` of the deals only the ``keep`` best bids are played on (a forbidden bid, the
// dealer's hook, is never among the moves).
#pragma once

#include <vector>

#include "search.hpp"

namespace tk {

struct BidStat {
    int move = 0;
    long deals = 0;
    double weight = 0.0; // the sum of the deals' weights
    double reward = 0.0; // of weight * the seat's search reward
    std::vector<double> tricks; // per trick count 0..hand size: the sum of the weights
    double mean() const { return weight > 0 ? reward / weight : 0.0; }
};

struct BidParams {
    long rollouts = 3000;      // every bid's rollouts together
    long first = 0;            // deals of the first round (every bid); 0: a quarter of the budget
    long keep = 4;             // bids played on after the first round
    double noise = 0.5;        // the other seats' chance of a random move in the rollouts
    double rivalry = 0.0;      // as SearchParams::rivalry
    double time_budget = -1.0; // seconds; < 0: none
    bool weighted = true;      // weigh deals by the bid model
};

struct BidResult {
    int move = -1;
    long rollouts = 0;
    std::vector<BidStat> bids; // in the order of the moves given
};

// The best of ``moves`` (bid codes, every one legal for the world's seat, which is to bid).
BidResult distribution_bid(const World &world, const std::vector<int> &moves,
                           const BidParams &p, uint64_t seed);

} // namespace tk
