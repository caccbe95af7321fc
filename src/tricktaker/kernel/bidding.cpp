// Bidding from the trick distribution (see bidding.hpp).
#include "bidding.hpp"

#include <algorithm>
#include <chrono>

#include "endgame.hpp"
#include "policy.hpp"

namespace tk {

BidResult distribution_bid(const World &world, const std::vector<int> &moves,
                           const BidParams &p, uint64_t seed) {
    using clock = std::chrono::steady_clock;
    const Config &cfg = *world.cfg;
    const int me = world.me;
    Rng rng(seed);
    const bool timed = p.time_budget >= 0;
    const auto deadline =
        clock::now() + std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(timed ? p.time_budget : 0.0));
    BidResult result;
    const size_t m = moves.size();
    if (m == 0) throw BadInput("no bid to choose from");
    result.bids.resize(m);
    for (size_t j = 0; j < m; ++j) {
        result.bids[j].move = moves[j];
        result.bids[j].tricks.assign(size_t(cfg.hand_size + 1), 0.0);
    }
    std::vector<size_t> candidates(m);
    for (size_t j = 0; j < m; ++j) candidates[j] = j;
    const long budget = std::max(p.rollouts, long(m));
    const long first = p.first > 0 ? p.first : std::max(1L, budget / (4 * long(m)));
    double reward[MAXP];
    bool stopped = false;
    for (int round = 0; round < 2 && !stopped; ++round) {
        long deals = first;
        if (round == 1) {
            std::stable_sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
                return result.bids[a].mean() > result.bids[b].mean();
            });
            size_t kept = size_t(std::max(1L, p.keep));
            if (candidates.size() > kept) candidates.resize(kept);
            if (candidates.size() < 2) break; // one bid left: nothing to compare
            deals = (budget - result.rollouts) / long(candidates.size());
        }
        for (long d = 0; d < deals; ++d) {
            if (timed && result.rollouts && clock::now() > deadline) {
                stopped = true;
                break;
            }
            State st;
            world.sample(rng, st);
            if (st.phase != BIDDING || seat_to_act(cfg, st) != me)
                throw BadInput("the seat of the world is not to bid");
            const double w = p.weighted ? world.weight(st) : 1.0;
            const uint64_t legal = legal_bids(cfg, st, me);
            // One stream of random numbers a deal, the same for every bid.
            const uint64_t deal_seed = rng.next();
            for (size_t j : candidates) {
                int bit = moves[j] - BID_BASE;
                if (bit < 0 || bit > 63 || !((legal >> bit) & 1))
                    throw BadInput("move " + std::to_string(moves[j]) + " is not a legal bid here");
                State trial = st;
                Rng play(deal_seed);
                apply_move(cfg, trial, moves[j]);
                rollout(cfg, trial, play, p.noise, me);
                rewards(cfg, trial, reward);
                rival_rewards(cfg, p.rivalry, reward);
                BidStat &stat = result.bids[j];
                stat.deals++;
                stat.weight += w;
                stat.reward += w * reward[me];
                int taken = trial.tricks[me];
                if (taken >= 0 && taken <= cfg.hand_size) stat.tricks[size_t(taken)] += w;
            }
            result.rollouts += long(candidates.size());
        }
    }
    // The best mean among the bids still in (the first in order among equals).
    size_t best = candidates[0];
    for (size_t j : candidates) {
        double a = result.bids[j].mean(), b = result.bids[best].mean();
        if (a > b || (a == b && j < best)) best = j;
    }
    result.move = moves[best];
    return result;
}

} // namespace tk
