// ISMCTS over determinized hands (see search.hpp and tricktaker/bots/ismcts.py).
#include "search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "endgame.hpp"
#include "policy.hpp"

namespace tk {

void World::sample(Rng &rng, State &out) const {
    out = public_state;
    if (split)
        split->sample(rng, out.hands);
    else
        det->sample(rng, out.hands);
    if (has_fixed)
        for (int s = 0; s < cfg->players; ++s) out.hands[s] |= fixed[s];
    guess_bids(out);
}

void World::guess_bids(State &st) const {
    for (int s : guess_seats) {
        int b = guess_bid(*cfg, st, s, legal_bids(*cfg, st, s));
        st.bids[s] = int8_t(b);
        st.bid_sum = int8_t(st.bid_sum + b);
    }
}

bool equivalent_cards(const Config &cfg, uint64_t hand, uint64_t gone, int a, int b) {
    if (a == b) return true;
    int suit = cfg.suit_of[a];
    if (cfg.suit_of[b] != suit) return false;
    int low = cfg.key[a][suit], high = cfg.key[b][suit];
    if (low > high) std::swap(low, high);
    for (uint64_t m = cfg.suit_masks[suit] & cfg.deck_mask & ~(hand | gone); m; m &= m - 1) {
        int k = cfg.key[lowest(m)][suit];
        if (k > low && k < high) return false;
    }
    return true;
}

double World::play_weight(const State &st) const {
    if (plays.empty() || infer_noise <= 0.0) return 1.0;
    double each[MAXP];
    seat_play_weights(st, infer_noise, each);
    double w = 1.0;
    for (int s = 0; s < cfg->players; ++s) w *= each[s];
    return w;
}

void World::seat_play_weights(const State &st, double noise, double out[MAXP]) const {
    const Config &c = *cfg;
    for (int s = 0; s < MAXP; ++s) out[s] = 1.0;
    if (plays.empty()) return;
    State r = public_state;
    for (int s = 0; s < c.players; ++s) {
        r.hands[s] = st.hands[s] | played[s];
        r.bids[s] = st.bids[s];
        r.tricks[s] = 0;
        r.points[s] = 0;
    }
    r.bid_sum = st.bid_sum;
    r.bid_count = st.bid_count;
    r.trick_len = 0;
    r.tricks_done = 0;
    r.broken = false;
    r.phase = PLAYING;
    r.leader = r.to_play = int8_t(plays[0].first);
    uint64_t gone = 0, trick = 0; // cards of the tricks done, of the trick in progress
    for (const auto &[seat, card] : plays) {
        if (r.phase != PLAYING || seat != r.to_play) break;
        uint64_t legal = legal_cards(c, r, seat);
        if (!((legal >> card) & 1)) break;
        int options = popcount(legal);
        if (seat != me && options > 1) {
            // The play's chance times the number of legal cards (1: no evidence).
            int pick = policy_move(c, r, legal);
            double chance = noise;
            if (equivalent_cards(c, r.hands[seat], gone, pick, card)) {
                int same = 0;
                for (uint64_t m = legal; m; m &= m - 1)
                    same += equivalent_cards(c, r.hands[seat], gone, pick, lowest(m));
                chance += (1.0 - noise) * options / same;
            }
            out[seat] *= chance;
        }
        trick |= uint64_t(1) << card;
        play_card(c, r, card);
        if (r.trick_len == 0) {
            gone |= trick;
            trick = 0;
        }
    }
}

double World::bid_ratio(const State &st, int seat, double low) const {
    if (value.empty() || st.bids[seat] < 0) return 1.0;
    double estimate = 0.0;
    for (uint64_t m = st.hands[seat] | played[seat]; m; m &= m - 1) estimate += value[lowest(m)];
    const int least = cfg->min_bid, most = cfg->hand_size, bid = st.bids[seat];
    const int range = most - least + 1;
    if (range < 1) return 1.0;
    // Each bid b is liked low + (1 - low) g(b), g(b) = exp(scale (b - estimate) ** 2).
    double sum = 0.0, chosen_g = 0.0;
    if (scale < 0.0) {
        // From the bid nearest the estimate outwards, g falls: each step multiplies it by
        // a ratio that itself shrinks by exp(2 scale), so three exps make every term.
        int peak = std::clamp(int(std::lround(std::clamp(estimate, -1e6, 1e6))), least, most);
        double gap = double(peak) - estimate;
        double top = std::exp(scale * gap * gap);
        double up = std::exp(scale * (2.0 * gap + 1.0)), down = std::exp(scale * (1.0 - 2.0 * gap));
        double shrink = up * down;
        sum = top;
        if (bid == peak) chosen_g = top;
        double g = top, ratio = up;
        for (int b = peak + 1; b <= most; ++b, ratio *= shrink) {
            g *= ratio;
            sum += g;
            if (b == bid) chosen_g = g;
        }
        g = top;
        ratio = down;
        for (int b = peak - 1; b >= least; --b, ratio *= shrink) {
            g *= ratio;
            sum += g;
            if (b == bid) chosen_g = g;
        }
    } else {
        for (int b = least; b <= most; ++b) {
            double error = double(b) - estimate;
            double g = std::exp(scale * error * error);
            sum += g;
            if (b == bid) chosen_g = g;
        }
    }
    double total = low * range + (1.0 - low) * sum;
    double chosen = bid < least || bid > most ? 0.0 : low + (1.0 - low) * chosen_g;
    return total > 0.0 ? chosen * range / total : 1.0;
}

OpponentKinds opponent_kinds(const World &world, Rng &rng, long deals) {
    OpponentKinds kinds;
    const int n = world.cfg->players;
    double mean[MAXP] = {};
    State st;
    double each[MAXP], loose[MAXP];
    const double power = world.kind_plays;
    auto told = [power](double ratio) {
        return power == 1.0 ? ratio : power == 0.0 ? 1.0 : std::pow(ratio, power);
    };
    long count = deals < 1 ? 1 : deals;
    for (long d = 0; d < count; ++d) {
        world.sample(rng, st);
        world.seat_play_weights(st, world.kind_noise, each);
        world.seat_play_weights(st, LOOSE_KIND_NOISE, loose);
        for (int s = 0; s < n; ++s) {
            if (s == world.me) continue;
            kinds.bid_mean[s] += world.bid_ratio(st, s) / double(count);
            double policy = world.bid_ratio(st, s, KIND_BID_FLOOR) * told(each[s]);
            double other = world.bid_ratio(st, s, LOOSE_BID_FLOOR) * told(loose[s]);
            mean[s] += 0.5 * (policy + other) / double(count);
        }
    }
    for (int s = 0; s < n; ++s) {
        double prior = s < int(world.random_prior.size()) ? world.random_prior[size_t(s)] : 0.0;
        if (s == world.me || prior <= 0.0) continue;
        double policy = (1.0 - prior) * mean[s];
        kinds.random[s] = policy + prior > 0.0 ? prior / (policy + prior) : prior;
        if (!(kinds.bid_mean[s] > 0.0)) kinds.bid_mean[s] = 1.0;
    }
    return kinds;
}

DealPool::DealPool(const World &world, Rng &rng, long count) {
    deals.resize(size_t(count < 1 ? 1 : count));
    double total = 0.0;
    for (State &st : deals) {
        world.sample(rng, st);
        double w = world.weight(st);
        total += std::isfinite(w) && w > 0.0 ? w : 0.0;
        cumulative.push_back(total);
    }
    if (!(total > 0.0)) // no deal with a weight: every deal alike
        for (size_t i = 0; i < deals.size(); ++i) cumulative[i] = double(i + 1);
}

const State &DealPool::draw(Rng &rng) const {
    double at = rng.real() * cumulative.back();
    size_t i = size_t(std::upper_bound(cumulative.begin(), cumulative.end(), at) - cumulative.begin());
    return deals[i < deals.size() ? i : deals.size() - 1];
}

double World::weight(const State &st) const {
    if (value.empty()) return play_weight(st);
    double w = play_weight(st);
    for (int s : weight_seats) {
        double estimate = 0.0;
        for (uint64_t m = st.hands[s] | played[s]; m; m &= m - 1) estimate += value[lowest(m)];
        double error = double(st.bids[s] < 0 ? 0 : st.bids[s]) - estimate;
        w *= floor + (1.0 - floor) * std::exp(scale * error * error);
    }
    return w;
}

namespace {

struct Node {
    int first_child = -1;
    int next_sibling = -1;
    int16_t move = 0;
    int8_t seat = 0;
    int visits = 0;
    int avail = 1;
    double weight = 0.0;
    double reward = 0.0;
    double mean() const { return weight > 0 ? reward / weight : 0.0; }
};

struct Tree {
    std::vector<Node> nodes;
    Tree() {
        nodes.reserve(1 << 16);
        nodes.emplace_back();
    }
    int find(int parent, int seat, int move) const {
        for (int c = nodes[parent].first_child; c >= 0; c = nodes[c].next_sibling)
            if (nodes[c].move == move && nodes[c].seat == seat) return c;
        return -1;
    }
    int add(int parent, int seat, int move) {
        int index = int(nodes.size());
        nodes.emplace_back();
        Node &child = nodes.back();
        child.move = int16_t(move);
        child.seat = int8_t(seat);
        child.next_sibling = nodes[parent].first_child;
        nodes[parent].first_child = index;
        return index;
    }
};

// log(n) for a count n >= 1, from a table for the small counts most nodes have (the same
// value std::log gives).
constexpr int LOGGED_COUNTS = 1 << 13;
inline double log_count(int n) {
    static const std::vector<double> table = [] {
        std::vector<double> t(LOGGED_COUNTS);
        for (int i = 1; i < LOGGED_COUNTS; ++i) t[size_t(i)] = std::log(double(i));
        return t;
    }();
    return n < LOGGED_COUNTS ? table[size_t(n)] : std::log(double(n));
}

inline int move_of(const State &st, int bit) { return bit + (st.phase == BIDDING ? BID_BASE : 0); }

struct Step {
    int node;
    int seat;
};

void iterate(const World &world, Tree &tree, const SearchParams &p, Rng &rng,
             std::vector<Step> &path, Endgame *endgame, const DealPool *pool,
             const OpponentKinds *kinds) {
    const Config &cfg = *world.cfg;
    State st;
    double w = 1.0;
    // With learned kinds, each other seat is a random player this iteration with its
    // posterior chance (``random`` seats), else a policy player; ``noise`` is each
    // seat's in the rollout.
    uint32_t random = 0;
    double noise[MAXP];
    for (int s = 0; s < MAXP; ++s) noise[s] = s == world.me ? 0.0 : p.noise;
    if (kinds != nullptr) {
        for (int s = 0; s < cfg.players; ++s)
            if (s != world.me && kinds->random[s] > 0.0 && rng.real() < kinds->random[s]) {
                random |= 1u << s;
                noise[s] = 1.0;
            }
        world.sample(rng, st);
        if (p.weighted)
            for (int s : world.weight_seats)
                if (!((random >> s) & 1)) w *= world.bid_ratio(st, s) / kinds->bid_mean[s];
    } else if (pool != nullptr) {
        st = pool->draw(rng);
    } else {
        world.sample(rng, st);
        if (p.weighted) w = world.weight(st);
    }
    int node = 0;
    path.clear();
    int children[128];
    int moves[128];
    int slot[BID_BASE + 64]; // per move code, its child in the descent (set for legal moves)
    while (st.phase != OVER) {
        int seat = seat_to_act(cfg, st);
        uint64_t legal = legal_moves(cfg, st);
        if ((p.model_opponents || ((random >> seat) & 1)) && seat != world.me) {
            int move;
            if (popcount(legal) == 1)
                move = move_of(st, lowest(legal));
            else if ((random >> seat) & 1)
                move = move_of(st, rng.pick(legal));
            else if (p.model_opponents == 2 && p.noise > 0.0 && rng.real() < p.noise)
                move = move_of(st, rng.pick(legal));
            else
                move = policy_move(cfg, st, legal);
            apply_move(cfg, st, move);
            int child = tree.find(node, seat, move);
            if (child < 0) {
                path.push_back({tree.add(node, seat, move), seat});
                break;
            }
            node = child;
            path.push_back({node, seat});
            continue;
        }
        // Each legal move's child, from one walk of the node's children.
        int count = 0, untried = 0;
        const int base = st.phase == BIDDING ? BID_BASE : 0;
        for (uint64_t m = legal; m; m &= m - 1) {
            moves[count] = lowest(m) + base;
            slot[moves[count++]] = -1;
        }
        for (int c = tree.nodes[node].first_child; c >= 0; c = tree.nodes[c].next_sibling) {
            const Node &child = tree.nodes[c];
            int bit = child.move - base;
            if (child.seat == seat && bit >= 0 && bit < 64 && ((legal >> bit) & 1) &&
                slot[child.move] < 0)
                slot[child.move] = c;
        }
        for (int i = 0; i < count; ++i) {
            children[i] = slot[moves[i]];
            if (children[i] < 0) ++untried;
        }
        if (untried) {
            int pick = untried == 1 ? 0 : int(rng.below(uint32_t(untried)));
            int chosen = -1;
            for (int i = 0; i < count; ++i) {
                if (children[i] >= 0) {
                    tree.nodes[children[i]].avail++;
                } else if (pick-- == 0) {
                    chosen = moves[i];
                }
            }
            int child = tree.add(node, seat, chosen);
            apply_move(cfg, st, chosen);
            path.push_back({child, seat});
            break;
        }
        int best = -1;
        double best_score = -INFINITY;
        for (int i = 0; i < count; ++i) {
            Node &child = tree.nodes[children[i]];
            child.avail++;
            double score = child.mean() +
                           p.exploration * std::sqrt(log_count(child.avail) / child.visits);
            if (best < 0 || score > best_score) { // the first always: a NaN never wins
                best = i;
                best_score = score;
            }
        }
        apply_move(cfg, st, moves[best]);
        node = children[best];
        path.push_back({node, seat});
    }
    double reward[MAXP];
    bool solved = false;
    if (endgame != nullptr) {
        // Within endgame_tricks tricks of the end (reached by the rollout with
        // endgame_rollouts), the exact endgame (its rewards already each seat's margin)
        // finishes the deal, unless it is too large.
        if (p.endgame_rollouts) rollout_until(cfg, st, rng, p.noise, world.me, p.endgame_tricks);
        solved = endgame_fits(cfg, st, p.endgame_tricks) && endgame->solve(st, reward);
    }
    if (!solved) {
        if (kinds != nullptr)
            rollout_seats(cfg, st, rng, noise);
        else
            rollout(cfg, st, rng, p.noise, world.me);
        rewards(cfg, st, reward);
        // Each seat's result less ``rivalry`` times the others' mean (its margin).
        rival_rewards(cfg, p.rivalry, reward);
    }
    for (const Step &step : path) {
        Node &visited = tree.nodes[step.node];
        visited.visits++;
        visited.weight += w;
        visited.reward += w * reward[step.seat];
    }
}

} // namespace

SearchResult flat_rollouts(const World &world, const std::vector<int> &moves, long first,
                           long keep, long rollouts, double noise, double time_budget,
                           uint64_t seed) {
    using clock = std::chrono::steady_clock;
    const Config &cfg = *world.cfg;
    Rng rng(seed);
    const bool timed = time_budget >= 0;
    const auto deadline =
        clock::now() + std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(timed ? time_budget : 0.0));
    size_t m = moves.size();
    std::vector<size_t> candidates(m);
    for (size_t j = 0; j < m; ++j) candidates[j] = j;
    std::vector<double> totals(m, 0.0);
    long spent = 0;
    double reward[MAXP];
    for (int round = 0; round < 2; ++round) {
        long deals = first;
        if (round == 1) {
            std::stable_sort(candidates.begin(), candidates.end(),
                             [&](size_t a, size_t b) { return totals[a] > totals[b]; });
            if (long(candidates.size()) > keep) candidates.resize(size_t(keep < 1 ? 1 : keep));
            deals = (rollouts - spent) / long(candidates.size());
        }
        for (long d = 0; d < deals; ++d) {
            if (timed && spent && clock::now() > deadline) break;
            State st;
            world.sample(rng, st);
            double w = world.weight(st);
            for (size_t j : candidates) {
                State trial = st;
                apply_move(cfg, trial, moves[j]);
                rollout(cfg, trial, rng, noise, world.me);
                rewards(cfg, trial, reward);
                totals[j] += w * reward[world.me];
            }
            spent += long(candidates.size());
        }
    }
    SearchResult result;
    size_t best = candidates[0];
    for (size_t j : candidates)
        if (totals[j] > totals[best] || (totals[j] == totals[best] && j < best)) best = j;
    result.move = moves[best];
    result.iterations = spent;
    for (size_t j = 0; j < m; ++j) result.root.push_back({moves[j], 0, totals[j]});
    return result;
}

ChoiceValues choice_values(const World &world, const std::vector<int> &moves, long deals,
                           long least, double time_budget, uint64_t seed,
                           const std::vector<Deal> *given) {
    using clock = std::chrono::steady_clock;
    const Config &cfg = *world.cfg;
    const int me = world.me;
    Rng rng(seed);
    const bool timed = time_budget >= 0;
    const auto deadline =
        clock::now() + std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(timed ? time_budget : 0.0));
    if (given != nullptr && long(given->size()) < deals) deals = long(given->size());
    ChoiceValues result;
    result.moves.resize(moves.size());
    result.made_known = !cfg.table_result && cfg.outcome_keys.empty();
    for (long d = 0; d < deals; ++d) {
        if (timed && d >= least && clock::now() > deadline) break;
        State st;
        double w;
        if (given != nullptr) {
            const Deal &deal = (*given)[size_t(d)];
            st = world.public_state;
            for (int s = 0; s < cfg.players; ++s) st.hands[s] = deal.hands[s];
            world.guess_bids(st);
            w = deal.weight;
        } else {
            world.sample(rng, st);
            w = world.weight(st);
        }
        if (seat_to_act(cfg, st) != me) throw BadInput("the seat of the world is not to act");
        const uint64_t legal = legal_moves(cfg, st);
        for (size_t j = 0; j < moves.size(); ++j) {
            int bit = moves[j] - (st.phase == BIDDING ? BID_BASE : 0);
            if (bit < 0 || bit > 63 || !((legal >> bit) & 1))
                throw BadInput("move " + std::to_string(moves[j]) + " is not legal here");
            State trial = st;
            apply_move(cfg, trial, moves[j]);
            rollout(cfg, trial, rng, 0.0, me);
            double points = double(coach_points(cfg, trial, me));
            MoveValue &value = result.moves[j];
            value.deals++;
            value.weight += w;
            value.weight_sq += w * w;
            value.sum += w * points;
            value.sum_sq += w * points * points;
            if (trial.bids[me] < 0)
                result.made_known = false;
            else if (trial.bids[me] == trial.tricks[me])
                value.made += w;
        }
    }
    if (!result.made_known)
        for (MoveValue &value : result.moves) value.made = 0.0;
    return result;
}

SearchResult ismcts(const World &world, const std::vector<int> &moves, const SearchParams &p,
                    uint64_t seed) {
    using clock = std::chrono::steady_clock;
    Rng rng(seed);
    Tree tree;
    std::vector<Step> path;
    path.reserve(128);
    SearchResult result;
    const bool timed = p.time_budget >= 0;
    const auto deadline =
        clock::now() + std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(timed ? p.time_budget : 0.0));
    int me = world.me;
    std::unique_ptr<Endgame> endgame;
    if (p.endgame_tricks > 0)
        endgame = std::make_unique<Endgame>(*world.cfg, p.rivalry, SEARCH_ENDGAME_NODES);
    std::unique_ptr<DealPool> pool;
    std::unique_ptr<OpponentKinds> kinds;
    if (!world.random_prior.empty())
        kinds = std::make_unique<OpponentKinds>(
            opponent_kinds(world, rng, std::min(KIND_DEALS, p.iterations)));
    else if (p.weighted && world.infer_pool > 0 && world.infer_noise > 0.0 && !world.plays.empty())
        pool = std::make_unique<DealPool>(world, rng, std::min(world.infer_pool, p.iterations));
    while (result.iterations < p.iterations) {
        iterate(world, tree, p, rng, path, endgame.get(), pool.get(), kinds.get());
        result.iterations++;
        if (timed && clock::now() > deadline) break;
    }
    int best = -1;
    for (size_t i = 0; i < moves.size(); ++i) {
        int child = tree.find(0, me, moves[i]);
        RootStat stat{moves[i], 0, 0.0};
        if (child >= 0) {
            stat.visits = tree.nodes[child].visits;
            stat.mean = tree.nodes[child].mean();
        }
        result.root.push_back(stat);
        if (best < 0) {
            best = int(i);
            continue;
        }
        const RootStat &b = result.root[best];
        // Most visited; then the best mean; then the first in order (as ismcts.py ranks).
        if (stat.visits > b.visits || (stat.visits == b.visits && stat.visits > 0 && stat.mean > b.mean))
            best = int(i);
    }
    result.move = moves[best];
    return result;
}

} // namespace tk
