// Reading Python values in the kernel's binding (module.cpp): references released by
// scope, and checked conversions of ints, masks, numbers, flags and sequences whose errors
// name the field ("state.trick[2][1] must be in 0..53"). Included by module.cpp only.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace tk::py {

struct PyError {}; // a Python exception is set


[[noreturn]] inline void fail(PyObject *type, const std::string &message) {
    PyErr_SetString(type, ("kernel: " + message).c_str());
    throw PyError{};
}

// A new reference, released when it goes out of scope (also when an exception unwinds).
class Ref {
  public:
    explicit Ref(PyObject *object = nullptr) : object_(object) {}
    Ref(Ref &&other) noexcept : object_(other.release()) {}
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    Ref &operator=(Ref &&) = delete;
    ~Ref() { Py_XDECREF(object_); }
    PyObject *get() const { return object_; }
    PyObject *release() {
        PyObject *out = object_;
        object_ = nullptr;
        return out;
    }

  private:
    PyObject *object_;
};

// A new object from the C API, or PyError when it failed (its exception is set).
inline PyObject *made(PyObject *object) {
    if (object == nullptr) throw PyError{};
    return object;
}

struct FieldTable {
    const char *object; // the object's name in messages
    const char *const *names;
    int count;
    std::vector<PyObject *> interned; // the names as interned strings (filled at import)
};


// Where a value sits, for messages ("state.trick[2][1]"), spelled out only on failure.
struct Label {
    const char *object = nullptr; // "state"; nullptr for an argument ("moves")
    const char *field = "";
    Py_ssize_t index[3] = {-1, -1, -1};

    Label(const char *argument) : field(argument) {} // NOLINT: an argument's name
    Label(const char *object_name, const char *field_name)
        : object(object_name), field(field_name) {}
    // The label of item ``i`` of this value.
    Label at(Py_ssize_t i) const {
        Label out = *this;
        for (auto &slot : out.index)
            if (slot < 0) {
                slot = i;
                break;
            }
        return out;
    }
    std::string str() const {
        std::string out = object ? std::string(object) + "." + field : std::string(field);
        for (Py_ssize_t i : index)
            if (i >= 0) out += "[" + std::to_string(i) + "]";
        return out;
    }
};

inline std::string type_of(PyObject *value) { return Py_TYPE(value)->tp_name; }

inline long long to_integer(PyObject *value, const Label &where, long long low,
                            long long high) {
    if (!PyLong_Check(value))
        fail(PyExc_TypeError, where.str() + " must be an int, not " + type_of(value));
    int overflow = 0;
    long long out = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (out == -1 && PyErr_Occurred()) throw PyError{};
    if (overflow || out < low || out > high)
        fail(PyExc_ValueError, where.str() + " must be in " + std::to_string(low) + ".." +
                                   std::to_string(high));
    return out;
}

inline uint64_t to_mask(PyObject *value, const Label &where, uint64_t allowed) {
    if (!PyLong_Check(value))
        fail(PyExc_TypeError, where.str() + " must be an int, not " + type_of(value));
    unsigned long long out = PyLong_AsUnsignedLongLong(value);
    if (out == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        fail(PyExc_ValueError, where.str() + " must be a mask: an int in 0..2**64-1");
    }
    if (out & ~allowed)
        fail(PyExc_ValueError, where.str() + " holds bits outside its range (mask " +
                                   std::to_string(allowed) + ")");
    return out;
}

inline double to_real(PyObject *value, const Label &where) {
    if (!PyFloat_Check(value) && !PyLong_Check(value))
        fail(PyExc_TypeError, where.str() + " must be a number, not " + type_of(value));
    double out = PyFloat_AsDouble(value);
    if (out == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        fail(PyExc_ValueError, where.str() + " is too large");
    }
    if (!std::isfinite(out)) fail(PyExc_ValueError, where.str() + " must be finite");
    return out;
}

inline bool to_flag(PyObject *value, const Label &where) {
    if (!PyBool_Check(value) && !PyLong_Check(value))
        fail(PyExc_TypeError, where.str() + " must be a bool, not " + type_of(value));
    int out = PyObject_IsTrue(value);
    if (out < 0) throw PyError{};
    return out != 0;
}

// ``value`` as a list or tuple (a new reference): any sequence but a string.
inline PyObject *as_sequence(PyObject *value, const Label &where) {
    if (PyUnicode_Check(value) || PyBytes_Check(value) || PyByteArray_Check(value) ||
        !PySequence_Check(value))
        fail(PyExc_TypeError, where.str() + " must be a list or tuple, not " + type_of(value));
    return made(PySequence_Fast(value, "kernel: expected a sequence"));
}

// A list or tuple, held for reading its items.
class Items {
  public:
    Items(PyObject *value, const Label &where, Py_ssize_t size = -1)
        : where_(where), seq_(as_sequence(value, where)) {
        if (size >= 0 && this->size() != size)
            fail(PyExc_ValueError, where.str() + " needs " + std::to_string(size) + " entries, not " +
                                       std::to_string(this->size()));
    }
    Py_ssize_t size() const { return PySequence_Fast_GET_SIZE(seq_.get()); }
    PyObject *operator[](Py_ssize_t i) const { return PySequence_Fast_GET_ITEM(seq_.get(), i); }
    Label name(Py_ssize_t i) const { return where_.at(i); }

    std::vector<long long> integers(long long low, long long high) const {
        std::vector<long long> out(static_cast<size_t>(size()));
        for (Py_ssize_t i = 0; i < size(); ++i)
            out[size_t(i)] = to_integer((*this)[i], name(i), low, high);
        return out;
    }
    std::vector<uint64_t> masks(uint64_t allowed) const {
        std::vector<uint64_t> out(static_cast<size_t>(size()));
        for (Py_ssize_t i = 0; i < size(); ++i) out[size_t(i)] = to_mask((*this)[i], name(i), allowed);
        return out;
    }
    std::vector<double> reals() const {
        std::vector<double> out(static_cast<size_t>(size()));
        for (Py_ssize_t i = 0; i < size(); ++i) out[size_t(i)] = to_real((*this)[i], name(i));
        return out;
    }

  private:
    Label where_;
    Ref seq_;
};

// Reads the fields of one typed object by the names of its field table.
class Reader {
  public:
    Reader(PyObject *object, const FieldTable &table) : object_(object), table_(table) {}

    Label name(int field) const { return Label(table_.object, table_.names[field]); }
    // The field's value (a new reference); TypeError when the object has no such field.
    PyObject *attr(int field) {
        PyObject *value = PyObject_GetAttr(object_, table_.interned[size_t(field)]);
        if (value == nullptr) {
            if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw PyError{};
            PyErr_Clear();
            fail(PyExc_TypeError, std::string("the ") + table_.object + " has no field " +
                                      table_.names[field] + " (a " + type_of(object_) +
                                      " was given)");
        }
        held_.emplace_back(value);
        return value;
    }
    long long integer(int field, long long low, long long high) {
        return to_integer(attr(field), name(field), low, high);
    }
    uint64_t mask(int field, uint64_t allowed) { return to_mask(attr(field), name(field), allowed); }
    double real(int field) { return to_real(attr(field), name(field)); }
    bool flag(int field) { return to_flag(attr(field), name(field)); }
    bool none(int field) { return attr(field) == Py_None; }
    Items items(int field, Py_ssize_t size = -1) { return Items(attr(field), name(field), size); }
    std::vector<long long> integers(int field, long long low, long long high, Py_ssize_t size = -1) {
        return items(field, size).integers(low, high);
    }
    std::vector<uint64_t> masks(int field, uint64_t allowed, Py_ssize_t size = -1) {
        return items(field, size).masks(allowed);
    }
    std::vector<double> reals(int field, Py_ssize_t size = -1) { return items(field, size).reals(); }

  private:
    PyObject *object_;
    const FieldTable &table_;
    std::vector<Ref> held_; // the values read, alive while their items are read
};

} // namespace tk::py
