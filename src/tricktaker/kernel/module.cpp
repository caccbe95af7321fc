// The CPython binding of the kernel: tricktaker.kernel._core (plain C API, no
// dependencies). The Python side (tricktaker/kernel/__init__.py) builds the dicts
// these functions read from a ruleset, an observation or an engine state.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core.hpp"
#include "determinize.hpp"
#include "policy.hpp"
#include "search.hpp"

namespace {

using namespace tk;

struct PyError {}; // a Python exception is set

PyObject *item(PyObject *dict, const char *name) {
    PyObject *value = PyDict_GetItemString(dict, name); // borrowed
    if (value == nullptr) {
        PyErr_Format(PyExc_KeyError, "kernel: missing field %s", name);
        throw PyError{};
    }
    return value;
}

long long as_int(PyObject *value) {
    long long out = PyLong_AsLongLong(value);
    if (out == -1 && PyErr_Occurred()) throw PyError{};
    return out;
}

long long get_int(PyObject *dict, const char *name) { return as_int(item(dict, name)); }

double get_float(PyObject *dict, const char *name) {
    double out = PyFloat_AsDouble(item(dict, name));
    if (out == -1.0 && PyErr_Occurred()) throw PyError{};
    return out;
}

bool get_bool(PyObject *dict, const char *name) {
    int out = PyObject_IsTrue(item(dict, name));
    if (out < 0) throw PyError{};
    return out != 0;
}

std::vector<long long> int_list(PyObject *value) {
    PyObject *seq = PySequence_Fast(value, "kernel: expected a sequence of integers");
    if (seq == nullptr) throw PyError{};
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    std::vector<long long> out(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            throw PyError{};
        }
        out[size_t(i)] = v;
    }
    Py_DECREF(seq);
    return out;
}

std::vector<long long> get_list(PyObject *dict, const char *name, size_t size) {
    auto out = int_list(item(dict, name));
    if (size && out.size() != size) {
        PyErr_Format(PyExc_ValueError, "kernel: %s needs %zu entries, not %zu", name, size,
                     out.size());
        throw PyError{};
    }
    return out;
}

void fail(PyObject *type, const std::string &message) {
    PyErr_SetString(type, message.c_str());
    throw PyError{};
}

PyObject *unsupported_error = nullptr; // tricktaker.kernel._core.Unsupported

// ------------------------------------------------------------------ capsules

const char *CONFIG = "tricktaker.kernel.Config";
const char *WORLD = "tricktaker.kernel.World";

struct WorldBox {
    World world;
    PyObject *config; // keeps the Config capsule alive
};

void free_config(PyObject *capsule) {
    delete static_cast<Config *>(PyCapsule_GetPointer(capsule, CONFIG));
}

void free_world(PyObject *capsule) {
    auto *box = static_cast<WorldBox *>(PyCapsule_GetPointer(capsule, WORLD));
    Py_XDECREF(box->config);
    delete box;
}

Config *config_of(PyObject *capsule) {
    auto *cfg = static_cast<Config *>(PyCapsule_GetPointer(capsule, CONFIG));
    if (cfg == nullptr) throw PyError{};
    return cfg;
}

WorldBox *world_of(PyObject *capsule) {
    auto *box = static_cast<WorldBox *>(PyCapsule_GetPointer(capsule, WORLD));
    if (box == nullptr) throw PyError{};
    return box;
}

State read_state(const Config &cfg, PyObject *d) {
    if (!PyDict_Check(d)) fail(PyExc_TypeError, "kernel: a state is a dict");
    State st{};
    size_t n = size_t(cfg.players);
    auto hands = get_list(d, "hands", n);
    auto bids = get_list(d, "bids", n);
    auto tricks = get_list(d, "tricks", n);
    auto points = get_list(d, "points", n);
    for (size_t s = 0; s < n; ++s) {
        st.hands[s] = uint64_t(hands[s]);
        if (st.hands[s] >> NCARDS) fail(PyExc_ValueError, "kernel: a hand holds cards 0..53");
        st.bids[s] = int8_t(bids[s]);
        st.tricks[s] = int8_t(tricks[s]);
        st.points[s] = int16_t(points[s]);
    }
    PyObject *trick = PySequence_Fast(item(d, "trick"), "kernel: trick is a sequence");
    if (trick == nullptr) throw PyError{};
    Py_ssize_t len = PySequence_Fast_GET_SIZE(trick);
    if (len >= cfg.players) {
        Py_DECREF(trick);
        fail(PyExc_ValueError, "kernel: a trick in progress has fewer cards than seats");
    }
    for (Py_ssize_t i = 0; i < len; ++i) {
        std::vector<long long> pair;
        try {
            pair = int_list(PySequence_Fast_GET_ITEM(trick, i));
        } catch (PyError &) {
            Py_DECREF(trick);
            throw;
        }
        st.trick_seat[i] = uint8_t(pair.at(0));
        st.trick_card[i] = uint8_t(pair.at(1));
    }
    Py_DECREF(trick);
    st.trick_len = int8_t(len);
    st.leader = int8_t(get_int(d, "leader"));
    st.to_play = int8_t(get_int(d, "to_play"));
    st.tricks_done = int8_t(get_int(d, "tricks_done"));
    st.bid_count = int8_t(get_int(d, "bid_count"));
    st.bid_sum = int8_t(get_int(d, "bid_sum"));
    st.eldest = int8_t(get_int(d, "eldest"));
    st.phase = int8_t(get_int(d, "phase"));
    st.broken = get_bool(d, "broken");
    st.first_bidder = int8_t(get_int(d, "first_bidder"));
    if (st.first_bidder >= cfg.players) fail(PyExc_ValueError, "kernel: bad first bidder");
    if (st.phase < BIDDING || st.phase > OVER) fail(PyExc_ValueError, "kernel: bad phase");
    return st;
}

PyObject *state_scores(const Config &cfg, const State &st) {
    PyObject *out = PyTuple_New(cfg.players);
    for (int s = 0; s < cfg.players; ++s)
        PyTuple_SET_ITEM(out, s, PyLong_FromLong(hand_score(cfg, st, s)));
    return out;
}

// A SplitSampler from {"first", "second", "nodes": [[(weight, next, list), ...], ...],
// "lists": [[cards, ...], ...]} (see determinize.hpp).
std::unique_ptr<SplitSampler> read_split(PyObject *d, const Config &cfg, uint64_t unknown) {
    if (!PyDict_Check(d)) fail(PyExc_TypeError, "kernel: split is a dict");
    auto out = std::make_unique<SplitSampler>();
    out->first = int(get_int(d, "first"));
    out->second = int(get_int(d, "second"));
    if (out->first < 0 || out->first >= cfg.players || out->second < 0 ||
        out->second >= cfg.players || out->first == out->second)
        fail(PyExc_ValueError, "kernel: split: two different seats");
    out->unknown = unknown;
    PyObject *lists = PySequence_Fast(item(d, "lists"), "kernel: split lists");
    if (lists == nullptr) throw PyError{};
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(lists); ++i) {
        std::vector<long long> cards;
        try {
            cards = int_list(PySequence_Fast_GET_ITEM(lists, i));
        } catch (PyError &) {
            Py_DECREF(lists);
            throw;
        }
        out->lists.emplace_back(cards.begin(), cards.end());
    }
    Py_DECREF(lists);
    PyObject *nodes = PySequence_Fast(item(d, "nodes"), "kernel: split nodes");
    if (nodes == nullptr) throw PyError{};
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(nodes); ++i) {
        PyObject *options = PySequence_Fast(PySequence_Fast_GET_ITEM(nodes, i), "kernel: a node");
        if (options == nullptr) {
            Py_DECREF(nodes);
            throw PyError{};
        }
        SplitSampler::Node node;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(options); ++j) {
            double weight;
            int next, list;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(options, j), "dii", &weight, &next,
                                  &list)) {
                Py_DECREF(options);
                Py_DECREF(nodes);
                throw PyError{};
            }
            node.total += weight;
            node.options.push_back({node.total, next, list});
        }
        Py_DECREF(options);
        out->nodes.push_back(std::move(node));
    }
    Py_DECREF(nodes);
    out->check();
    return out;
}

// ------------------------------------------------------------------ functions

PyObject *make_config(PyObject *, PyObject *arg) {
    try {
        if (!PyDict_Check(arg)) fail(PyExc_TypeError, "kernel: the config is a dict");
        auto cfg = std::make_unique<Config>();
        cfg->players = int(get_int(arg, "players"));
        cfg->hand_size = int(get_int(arg, "hand_size"));
        cfg->trump = int(get_int(arg, "trump"));
        auto suit_of = get_list(arg, "suit_of", NCARDS);
        auto rank_of = get_list(arg, "rank_of", NCARDS);
        auto key = get_list(arg, "key", NCARDS * 5);
        for (int c = 0; c < NCARDS; ++c) {
            cfg->suit_of[c] = int8_t(suit_of[c]);
            cfg->rank_of[c] = int8_t(rank_of[c]);
            if (suit_of[c] < 0 || suit_of[c] > FREE) fail(PyExc_ValueError, "kernel: bad suit");
            for (int led = 0; led < 5; ++led) cfg->key[c][led] = int16_t(key[c * 5 + led]);
        }
        auto masks = get_list(arg, "suit_masks", 5);
        for (int i = 0; i < 5; ++i) cfg->suit_masks[i] = uint64_t(masks[i]);
        cfg->trump_mask = uint64_t(get_int(arg, "trump_mask"));
        cfg->deck_mask = uint64_t(get_int(arg, "deck_mask"));
        cfg->turn_up_mask = uint64_t(get_int(arg, "turn_up_mask"));
        cfg->follow_suit = get_bool(arg, "follow_suit");
        cfg->must_trump = get_bool(arg, "must_trump");
        cfg->trump_lead_after_broken = get_bool(arg, "trump_lead_after_broken");
        cfg->misere = get_bool(arg, "misere");
        cfg->cooperative = get_bool(arg, "cooperative");
        cfg->hook = get_bool(arg, "hook");
        cfg->sum_equals_hand = get_bool(arg, "sum_equals_hand");
        cfg->simultaneous = get_bool(arg, "simultaneous");
        cfg->min_bid = int(get_int(arg, "min_bid"));
        cfg->no_zero_seats = uint32_t(get_int(arg, "no_zero_seats"));
        for (long long v : get_list(arg, "score", 0)) cfg->score.push_back(int(v));
        for (long long v : get_list(arg, "trick_points", 0)) cfg->trick_points.push_back(int(v));
        cfg->reward_scale = get_float(arg, "reward_scale");
        cfg->table_result = get_bool(arg, "table_result");
        if (cfg->table_result) {
            for (long long v : get_list(arg, "result_score", 0)) cfg->result_score.push_back(int(v));
            PyObject *seq = PySequence_Fast(item(arg, "result_reward"), "kernel: result_reward");
            if (seq == nullptr) throw PyError{};
            for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i)
                cfg->result_reward.push_back(PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i)));
            Py_DECREF(seq);
            if (PyErr_Occurred()) throw PyError{};
        }
        if (cfg->table_result) {
            for (long long v : get_list(arg, "outcome_keys", 0))
                cfg->outcome_keys.push_back(uint64_t(v));
            for (long long v : get_list(arg, "outcome_score", 0))
                cfg->outcome_score.push_back(int(v));
            PyObject *seq = PySequence_Fast(item(arg, "outcome_reward"), "kernel: outcome_reward");
            if (seq == nullptr) throw PyError{};
            for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i)
                cfg->outcome_reward.push_back(PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i)));
            Py_DECREF(seq);
            if (PyErr_Occurred()) throw PyError{};
        }
        auto teams = get_list(arg, "team", size_t(cfg->players));
        for (int s = 0; s < cfg->players && s < MAXP; ++s) cfg->team[s] = uint32_t(teams[size_t(s)]);
        cfg->active = uint32_t(get_int(arg, "active"));
        cfg->opening_card = int(get_int(arg, "opening_card"));
        cfg->finish();
        return PyCapsule_New(cfg.release(), CONFIG, free_config);
    } catch (PyError &) {
        return nullptr;
    } catch (Unsupported &e) {
        PyErr_SetString(unsupported_error, e.what());
        return nullptr;
    } catch (std::exception &e) {
        PyErr_SetString(PyExc_ValueError, e.what());
        return nullptr;
    }
}

PyObject *make_world(PyObject *, PyObject *args) {
    PyObject *capsule, *state, *det;
    if (!PyArg_ParseTuple(args, "OO!O!", &capsule, &PyDict_Type, &state, &PyDict_Type, &det))
        return nullptr;
    try {
        Config *cfg = config_of(capsule);
        auto box = std::make_unique<WorldBox>();
        World &w = box->world;
        w.cfg = cfg;
        w.public_state = read_state(*cfg, state);
        w.me = int(get_int(det, "me"));
        size_t n = size_t(cfg->players);
        auto counts = get_list(det, "counts", n);
        auto voids = get_list(det, "voids", n);
        auto played = get_list(det, "played", n);
        auto hidden = get_list(det, "hidden", 0);
        int count_buf[MAXP];
        uint32_t void_buf[MAXP];
        for (size_t s = 0; s < n; ++s) {
            count_buf[s] = int(counts[s]);
            void_buf[s] = uint32_t(voids[s]);
            w.played[s] = uint64_t(played[s]);
        }
        std::vector<int> hidden_seats(hidden.begin(), hidden.end());
        uint64_t unknown = uint64_t(get_int(det, "unknown"));
        if (PyDict_GetItemString(det, "fixed") != nullptr) { // cards known with a seat
            auto fixed = get_list(det, "fixed", n);
            for (size_t s = 0; s < n; ++s) {
                w.fixed[s] = uint64_t(fixed[s]);
                if ((w.fixed[s] & (unknown | w.public_state.hands[s])) || (w.fixed[s] >> NCARDS))
                    fail(PyExc_ValueError, "kernel: fixed cards are known, not sampled");
                w.has_fixed = w.has_fixed || w.fixed[s] != 0;
            }
        }
        for (long long s : get_list(det, "guess_bids", 0)) {
            if (s < 0 || s >= cfg->players) fail(PyExc_ValueError, "kernel: bad guess seat");
            w.guess_seats.push_back(int(s));
        }
        PyObject *split = PyDict_GetItemString(det, "split"); // borrowed; optional
        if (split != nullptr && split != Py_None) {
            if (!hidden_seats.empty()) fail(PyExc_ValueError, "kernel: split: no other hidden seat");
            w.split = read_split(split, *cfg, unknown);
        } else {
            w.det = std::make_unique<Determinizer>(cfg->players, hidden_seats, count_buf,
                                                   void_buf, unknown, cfg->suit_of);
        }
        PyObject *value = item(det, "value");
        if (value != Py_None) {
            PyObject *seq = PySequence_Fast(value, "kernel: value is a sequence of floats");
            if (seq == nullptr) throw PyError{};
            for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); ++i)
                w.value.push_back(PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i)));
            Py_DECREF(seq);
            if (PyErr_Occurred()) throw PyError{};
            if (w.value.size() != size_t(NCARDS)) fail(PyExc_ValueError, "kernel: value: 54 floats");
            for (long long s : get_list(det, "weight_seats", 0)) w.weight_seats.push_back(int(s));
            w.scale = get_float(det, "scale");
            w.floor = get_float(det, "floor");
        }
        Py_INCREF(capsule);
        box->config = capsule;
        return PyCapsule_New(box.release(), WORLD, free_world);
    } catch (PyError &) {
        return nullptr;
    } catch (Unsupported &e) {
        PyErr_SetString(unsupported_error, e.what());
        return nullptr;
    } catch (std::exception &e) {
        PyErr_SetString(PyExc_ValueError, e.what());
        return nullptr;
    }
}

PyObject *search(PyObject *, PyObject *args, PyObject *kwargs) {
    static const char *names[] = {"world",      "moves",    "iterations",      "time_budget",
                                  "exploration", "noise",   "model_opponents", "weighted",
                                  "seed",        "rivalry",         nullptr};
    PyObject *capsule, *moves_obj;
    SearchParams p;
    int model = 0, weighted = 1;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOlddd|ipKd", const_cast<char **>(names),
                                     &capsule, &moves_obj, &p.iterations, &p.time_budget,
                                     &p.exploration, &p.noise, &model, &weighted, &seed,
                                     &p.rivalry))
        return nullptr;
    try {
        WorldBox *box = world_of(capsule);
        p.model_opponents = model;
        p.weighted = weighted != 0;
        auto listed = int_list(moves_obj);
        std::vector<int> moves(listed.begin(), listed.end());
        if (moves.empty()) fail(PyExc_ValueError, "kernel: no legal move to search");
        if (p.iterations < 1) fail(PyExc_ValueError, "kernel: iterations must be at least 1");
        SearchResult result;
        std::string error;
        Py_BEGIN_ALLOW_THREADS
        try {
            result = ismcts(box->world, moves, p, seed);
        } catch (std::exception &e) { // the GIL must be taken back before raising
            error = e.what();
        }
        Py_END_ALLOW_THREADS
        if (!error.empty()) fail(PyExc_RuntimeError, "kernel: " + error);
        PyObject *root = PyList_New(Py_ssize_t(result.root.size()));
        for (size_t i = 0; i < result.root.size(); ++i) {
            const RootStat &r = result.root[i];
            PyList_SET_ITEM(root, Py_ssize_t(i), Py_BuildValue("(iid)", r.move, r.visits, r.mean));
        }
        return Py_BuildValue("(ilN)", result.move, result.iterations, root);
    } catch (PyError &) {
        return nullptr;
    } catch (std::exception &e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
        return nullptr;
    }
}

// pimc(world, moves, first, keep, rollouts, noise, time_budget, seed) -> (move, rollouts)
PyObject *pimc(PyObject *, PyObject *args) {
    PyObject *capsule, *moves_obj;
    long first, keep, rollouts;
    double noise, budget;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOlllddK", &capsule, &moves_obj, &first, &keep, &rollouts, &noise,
                          &budget, &seed))
        return nullptr;
    try {
        WorldBox *box = world_of(capsule);
        auto listed = int_list(moves_obj);
        std::vector<int> moves(listed.begin(), listed.end());
        if (moves.empty()) fail(PyExc_ValueError, "kernel: no legal move to search");
        SearchResult result;
        std::string error;
        Py_BEGIN_ALLOW_THREADS
        try {
            result = flat_rollouts(box->world, moves, first, keep, rollouts, noise, budget, seed);
        } catch (std::exception &e) { // the GIL must be taken back before raising
            error = e.what();
        }
        Py_END_ALLOW_THREADS
        if (!error.empty()) fail(PyExc_RuntimeError, "kernel: " + error);
        return Py_BuildValue("(il)", result.move, result.iterations);
    } catch (PyError &) {
        return nullptr;
    }
}

// samples(world, seed, count): each sample's hands (a tuple of masks per seat).
PyObject *samples(PyObject *, PyObject *args) {
    PyObject *capsule;
    unsigned long long seed;
    long count;
    if (!PyArg_ParseTuple(args, "OKl", &capsule, &seed, &count)) return nullptr;
    try {
        WorldBox *box = world_of(capsule);
        const World &w = box->world;
        int n = w.cfg->players;
        Rng rng(seed);
        PyObject *out = PyList_New(0);
        State st;
        for (long i = 0; i < count; ++i) {
            w.sample(rng, st);
            PyObject *hands = PyTuple_New(n + 1);
            for (int s = 0; s < n; ++s)
                PyTuple_SET_ITEM(hands, s, PyLong_FromUnsignedLongLong(st.hands[s]));
            PyTuple_SET_ITEM(hands, n, PyFloat_FromDouble(w.weight(st)));
            PyList_Append(out, hands);
            Py_DECREF(hands);
        }
        return out;
    } catch (PyError &) {
        return nullptr;
    }
}

// sample_loop(world, seed, count): ``count`` determinizations, for timing; a checksum.
PyObject *sample_loop(PyObject *, PyObject *args) {
    PyObject *capsule;
    unsigned long long seed;
    long count;
    if (!PyArg_ParseTuple(args, "OKl", &capsule, &seed, &count)) return nullptr;
    try {
        const World &w = world_of(capsule)->world;
        uint64_t check = 0;
        Py_BEGIN_ALLOW_THREADS
        Rng rng(seed);
        State st;
        for (long i = 0; i < count; ++i) {
            w.sample(rng, st);
            check ^= st.hands[i % w.cfg->players];
        }
        Py_END_ALLOW_THREADS
        return PyLong_FromUnsignedLongLong(check);
    } catch (PyError &) {
        return nullptr;
    }
}

// playouts(config, state, seed, count, policy, noise, me): ``count`` playouts of a copy
// of ``state`` to the hand's end (random moves, or the rollout policy); the total score.
PyObject *playouts(PyObject *, PyObject *args) {
    PyObject *capsule, *state;
    unsigned long long seed;
    long count;
    int policy, me;
    double noise;
    if (!PyArg_ParseTuple(args, "OO!Klpdi", &capsule, &PyDict_Type, &state, &seed, &count,
                          &policy, &noise, &me))
        return nullptr;
    try {
        const Config &cfg = *config_of(capsule);
        State start = read_state(cfg, state);
        long long total = 0;
        Py_BEGIN_ALLOW_THREADS
        Rng rng(seed);
        for (long i = 0; i < count; ++i) {
            State st = start;
            if (policy)
                rollout(cfg, st, rng, noise, me);
            else
                random_rollout(cfg, st, rng);
            total += hand_score(cfg, st, int(i % cfg.players));
        }
        Py_END_ALLOW_THREADS
        return PyLong_FromLongLong(total);
    } catch (PyError &) {
        return nullptr;
    }
}

// replay(config, state, moves): plays ``moves`` (move codes) from ``state``; returns
// (steps, trick winners, hand scores, rewards), a step being (seat, legal mask, the
// policy's move) before each move. An illegal move raises ValueError.
PyObject *replay(PyObject *, PyObject *args) {
    PyObject *capsule, *state, *moves_obj;
    if (!PyArg_ParseTuple(args, "OO!O", &capsule, &PyDict_Type, &state, &moves_obj))
        return nullptr;
    try {
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        auto moves = int_list(moves_obj);
        PyObject *steps = PyList_New(0);
        PyObject *winners = PyList_New(0);
        for (long long move : moves) {
            if (st.phase == OVER) {
                Py_DECREF(steps);
                Py_DECREF(winners);
                fail(PyExc_ValueError, "kernel: a move after the hand's end");
            }
            int seat = seat_to_act(cfg, st);
            uint64_t legal = legal_moves(cfg, st);
            int bit = int(move) - (st.phase == BIDDING ? BID_BASE : 0);
            if (bit < 0 || bit > 63 || !((legal >> bit) & 1)) {
                Py_DECREF(steps);
                Py_DECREF(winners);
                fail(PyExc_ValueError, "kernel: illegal move " + std::to_string(move));
            }
            PyObject *step = Py_BuildValue("(iKi)", seat, (unsigned long long)legal,
                                           policy_move(cfg, st, legal));
            PyList_Append(steps, step);
            Py_DECREF(step);
            int done = st.tricks_done;
            apply_move(cfg, st, int(move));
            if (st.tricks_done > done) {
                PyObject *w = PyLong_FromLong(st.leader);
                PyList_Append(winners, w);
                Py_DECREF(w);
            }
        }
        PyObject *scores = state_scores(cfg, st);
        double reward[MAXP];
        rewards(cfg, st, reward);
        PyObject *rw = PyTuple_New(cfg.players);
        for (int s = 0; s < cfg.players; ++s) PyTuple_SET_ITEM(rw, s, PyFloat_FromDouble(reward[s]));
        return Py_BuildValue("(NNNNi)", steps, winners, scores, rw, int(st.phase));
    } catch (PyError &) {
        return nullptr;
    }
}

// estimate(config, state, seat): the rollout policy's estimate of the seat's tricks.
PyObject *estimate(PyObject *, PyObject *args) {
    PyObject *capsule, *state;
    int seat;
    if (!PyArg_ParseTuple(args, "OO!i", &capsule, &PyDict_Type, &state, &seat)) return nullptr;
    try {
        const Config &cfg = *config_of(capsule);
        State st = read_state(cfg, state);
        return PyFloat_FromDouble(estimate_tricks(cfg, st, seat));
    } catch (PyError &) {
        return nullptr;
    }
}

PyMethodDef methods[] = {
    {"make_config", make_config, METH_O, "A hand's rules (a dict) as a kernel config."},
    {"make_world", make_world, METH_VARARGS,
     "make_world(config, state, det): what one seat knows, ready to sample and search."},
    {"search", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(search)),
     METH_VARARGS | METH_KEYWORDS,
     "search(world, moves, iterations, time_budget, exploration, noise, model_opponents,"
     " weighted, seed, rivalry) -> (move, iterations, [(move, visits, mean)])"},
    {"pimc", pimc, METH_VARARGS,
     "pimc(world, moves, first, keep, rollouts, noise, time_budget, seed) -> (move, rollouts)"},
    {"samples", samples, METH_VARARGS, "samples(world, seed, count) -> [(hands..., weight)]"},
    {"sample_loop", sample_loop, METH_VARARGS, "sample_loop(world, seed, count) -> checksum"},
    {"playouts", playouts, METH_VARARGS,
     "playouts(config, state, seed, count, policy, noise, me) -> total score"},
    {"replay", replay, METH_VARARGS,
     "replay(config, state, moves) -> (steps, winners, scores, rewards, phase)"},
    {"estimate", estimate, METH_VARARGS, "estimate(config, state, seat) -> tricks"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                      "The compiled search kernel of tricktaker (see tricktaker.kernel).", -1,
                      methods, nullptr, nullptr, nullptr, nullptr};

} // namespace

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == nullptr) return nullptr;
    unsupported_error =
        PyErr_NewException("tricktaker.kernel._core.Unsupported", PyExc_ValueError, nullptr);
    if (unsupported_error == nullptr || PyModule_AddObject(m, "Unsupported", unsupported_error) < 0) {
        Py_XDECREF(unsupported_error);
        Py_DECREF(m);
        return nullptr;
    }
    Py_INCREF(unsupported_error);
    PyModule_AddIntConstant(m, "BID_BASE", BID_BASE);
    PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP);
    return m;
}
