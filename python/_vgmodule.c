/* SPDX-License-Identifier: Apache-2.0 OR BSD-3-Clause */
/*
 * vg._vg — the CPython extension behind vg.aead: AESGCM, AESGCMSIV and AESCCM with the constructor,
 * methods and behaviour of the classes of the same names in cryptography 48's
 * cryptography.hazmat.primitives.ciphers.aead, over vg's public API (vg.h) and nothing else.
 *
 * What the Python caller sees was probed from cryptography 48 itself (docs/python.md lists every
 * difference). The order of the checks matters, because a call with two faults must raise the same
 * exception as cryptography does:
 *   encrypt: arguments converted (nonce, data, associated_data, buf) -> data over 2**31 - 1 bytes
 *            (OverflowError) -> nonce length (ValueError) -> CCM: data too long for the nonce
 *            (ValueError) -> buffer size (ValueError) -> AAD over 2**31 - 1 bytes (OverflowError).
 *   decrypt: arguments converted -> nonce length -> data shorter than the tag (InvalidTag) -> CCM: data
 *            too long for the nonce -> buffer size -> AAD over 2**31 - 1 bytes.
 *
 * One module object per interpreter (PEP 489 multi-phase init): the classes are heap types made by the
 * module's exec slot, and everything that is a Python object (InvalidTag, os.urandom) lives in the
 * module's state, reached from a method through its type. A process-global PyObject * would be the
 * first interpreter's object in every other one: there, `except InvalidTag` would not catch vg's forgery
 * error (mod_wsgi runs each application in a sub-interpreter).
 *
 * Speed: the methods are METH_FASTCALL, arguments are parsed here without PyArg_* format strings,
 * bytes objects are read directly (no buffer view), the key schedule is set up once in the object, and
 * the GIL is released around the vg call only for inputs of VG_PY_NOGIL_MIN_* bytes or more (below
 * that, releasing and re-taking it costs more than the work). Every Py_buffer view is held until the call
 * has returned, so no buffer can be released or resized while the GIL is dropped.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vg.h"

/* Inputs (data + associated data) of at least this many bytes run with the GIL released; smaller ones
   keep it. Dropping and retaking the GIL costs little alone, but with two threads calling it hands the
   GIL over on every call (a futex wake-up, microseconds), so a release pays only when the call runs
   well over that: measured with python/bench.py-style runs on Zen 5 (docs/python.md), releasing from
   2 KiB made 2 threads at 16 KiB slower than one (AES-GCM x0.66 to x0.98, AES-GCM-SIV x0.35) and
   1-thread 4 KiB AES-GCM calls ~1.7x slower, while 1 MiB calls scale x1.9. AES-GCM and AES-GCM-SIV run at 15-20 GB/s there (64 KiB
   is 3-4 us), AES-CCM at ~1.4 GB/s (16 KiB is ~11 us). Either can be set when compiling. */
#ifndef VG_PY_NOGIL_MIN_GCM
#define VG_PY_NOGIL_MIN_GCM (64 * 1024)
#endif
#ifndef VG_PY_NOGIL_MIN_CCM
#define VG_PY_NOGIL_MIN_CCM (16 * 1024)
#endif
/* cryptography's limit for data and associated data, in bytes. */
#define VG_PY_MAX_LEN ((Py_ssize_t)0x7fffffff)

/* Per interpreter: the module's state. The classes find it through PyType_GetModuleState. */
typedef struct {
    PyObject *invalid_tag;   /* this interpreter's vg._exceptions.InvalidTag (cryptography's, or vg's own) */
    PyObject *urandom;       /* this interpreter's os.urandom, for generate_key */
    int gcm_siv_192;         /* does this vg accept 24-byte GCM-SIV keys? asked of the library at import */
} module_state;

/* Only ever called on the error paths, so the hot path pays nothing for the per-interpreter lookup. */
static void set_invalid_tag(PyTypeObject *type)
{
    module_state *st = PyType_GetModuleState(type);
    if (st && st->invalid_tag)
        PyErr_SetNone(st->invalid_tag);
    else if (!PyErr_Occurred()) /* the module was torn down under a live key object */
        PyErr_SetString(PyExc_RuntimeError, "vg: the vg._vg module of this key object is gone");
}

/* Zeroes memory the compiler would otherwise see as dead before free() and drop the stores (as vg's
   own vg_wipe does; vg.h has no public wipe for plain buffers). */
static void wipe(void *p, size_t n)
{
#if defined(__GNUC__) || defined(__clang__)
    memset(p, 0, n);
    __asm__ __volatile__("" : : "r"(p) : "memory"); /* the zeroes may be read by code it cannot see */
#else
    volatile uint8_t *v = p;
    while (n--)
        *v++ = 0;
#endif
}

/* ---------------------------------------------------------------------------------------------- */
/* The three classes, as a table the methods are written once over.                              */

typedef int (*seal_fn)(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                       size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag,
                       size_t tag_len);
typedef int (*open_fn)(const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                       size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag,
                       size_t tag_len, uint8_t *out);

enum aead_kind { KIND_GCM, KIND_GCM_SIV, KIND_CCM };

typedef struct aead_class {
    enum aead_kind kind;
    const char *name;          /* "AESGCM": the prefix of TypeError messages */
    const char *key_error;     /* ValueError for a bad key length */
    const char *nonce_error;   /* ValueError for a bad nonce length */
    const char *key_arg;       /* the "argument 'key': " prefix cryptography puts (or not) on TypeErrors */
    size_t nonce_min, nonce_max;
    Py_ssize_t nogil_min;      /* release the GIL from this many bytes of data + AAD */
    int (*init)(void *k, const uint8_t *key, size_t key_len);
    seal_fn seal;
    open_fn open;
    void (*wipe)(void *k);
} aead_class;

/* Each wrapper only gives the vg function its own key type (calling vg through a cast function
   pointer type would be undefined behaviour). */
static int gcm_init(void *k, const uint8_t *key, size_t n) { return vg_aes_gcm_init(k, key, n); }
static int siv_init(void *k, const uint8_t *key, size_t n) { return vg_aes_gcm_siv_init(k, key, n); }
static int ccm_init(void *k, const uint8_t *key, size_t n) { return vg_aes_ccm_init(k, key, n); }
static void gcm_wipe(void *k) { vg_aes_gcm_key_wipe(k); }
static void siv_wipe(void *k) { vg_aes_gcm_siv_key_wipe(k); }
static void ccm_wipe(void *k) { vg_aes_ccm_key_wipe(k); }
#define SEAL_ARGS const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, \
    size_t aad_len, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag, size_t tag_len
#define OPEN_ARGS const void *k, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, \
    size_t aad_len, const uint8_t *in, size_t len, const uint8_t *tag, size_t tag_len, uint8_t *out
static int gcm_seal(SEAL_ARGS) { return vg_aes_gcm_seal(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len); }
static int siv_seal(SEAL_ARGS) { return vg_aes_gcm_siv_seal(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len); }
static int ccm_seal(SEAL_ARGS) { return vg_aes_ccm_seal(k, nonce, nonce_len, aad, aad_len, in, len, out, tag, tag_len); }
static int gcm_open(OPEN_ARGS) { return vg_aes_gcm_open(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out); }
static int siv_open(OPEN_ARGS) { return vg_aes_gcm_siv_open(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out); }
static int ccm_open(OPEN_ARGS) { return vg_aes_ccm_open(k, nonce, nonce_len, aad, aad_len, in, len, tag, tag_len, out); }

static const aead_class gcm_class = {
    KIND_GCM, "AESGCM", "AESGCM key must be 128, 192, or 256 bits.",
    "Nonce must be between 8 and 128 bytes", "", 8, 128, VG_PY_NOGIL_MIN_GCM, gcm_init, gcm_seal, gcm_open, gcm_wipe};
static const aead_class siv_class = {
    KIND_GCM_SIV, "AESGCMSIV", "AES-GCM-SIV key must be 128, 192 or 256 bits.",
    "Nonce must be 12 bytes long", "argument 'key': ", 12, 12, VG_PY_NOGIL_MIN_GCM, siv_init, siv_seal, siv_open, siv_wipe};
static const aead_class ccm_class = {
    KIND_CCM, "AESCCM", "AESCCM key must be 128, 192, or 256 bits.",
    "Nonce must be between 7 and 13 bytes", "", 7, 13, VG_PY_NOGIL_MIN_CCM, ccm_init, ccm_seal, ccm_open, ccm_wipe};

/* One object layout for the three classes; each type's tp_basicsize stops after its own key type. */
typedef struct {
    PyObject_HEAD
    const aead_class *cls;
    size_t tag_len;
    union {
        vg_aes_gcm_key gcm;
        vg_aes_gcm_siv_key siv;
        vg_aes_ccm_key ccm;
    } key;
} AeadObject;

/* The key must sit at a 16-byte offset (vg.h: contexts are 16-byte aligned); the object itself comes
   from PyObject_Malloc or malloc, both 16-byte aligned on 64-bit CPython, and tp_new checks it. */
_Static_assert(offsetof(AeadObject, key) % 16 == 0, "vg key not 16-byte aligned in AeadObject");
_Static_assert(_Alignof(vg_aes_gcm_key) == 16 && _Alignof(vg_aes_ccm_key) == 16,
               "vg contexts are expected to need 16-byte alignment");

/* ---------------------------------------------------------------------------------------------- */
/* Arguments                                                                                       */

/* The TypeError CPython (and cryptography) give for missing arguments: "missing 2 required positional
   arguments: 'a' and 'b'", "... 'a', 'b', and 'c'". */
static int check_missing(const char *fname, const char *const *names, Py_ssize_t required, PyObject **out)
{
    char list[160];
    size_t used = 0;
    Py_ssize_t missing = 0, seen = 0;
    for (Py_ssize_t i = 0; i < required; i++)
        missing += out[i] == NULL;
    if (missing == 0)
        return 0;
    list[0] = '\0';
    for (Py_ssize_t i = 0; i < required && used < sizeof list; i++) {
        if (out[i])
            continue;
        seen++;
        const char *sep = seen == 1 ? "" : missing == 2 ? " and " : seen == missing ? ", and " : ", ";
        int n = PyOS_snprintf(list + used, sizeof list - used, "%s'%s'", sep, names[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    PyErr_Format(PyExc_TypeError, "%s() missing %zd required positional argument%s: %s", fname, missing,
                 missing == 1 ? "" : "s", list);
    return -1;
}

/* Fills out[0..n) from positional args and keyword names, as Python would for a function taking
   the parameters names[0..n) (the first required ones required, the rest optional: NULL if absent).
   Messages follow CPython's. */
static int parse_args(const char *fname, const char *const *names, Py_ssize_t n, Py_ssize_t required,
                      PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **out)
{
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd positional arguments but %zd were given", fname,
                     n, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t j = 0; j < nkw; j++) {
        PyObject *kw = PyTuple_GET_ITEM(kwnames, j);
        Py_ssize_t i = 0;
        while (i < n && PyUnicode_CompareWithASCIIString(kw, names[i]) != 0)
            i++;
        if (i == n) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, kw);
            return -1;
        }
        if (out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[i]);
            return -1;
        }
        out[i] = args[nargs + j];
    }
    return check_missing(fname, names, required, out);
}

/* The same for a tuple and a dict (tp_new). */
static int parse_tuple_dict(const char *fname, const char *const *names, Py_ssize_t n,
                            Py_ssize_t required, PyObject *args, PyObject *kwds, PyObject **out)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd positional arguments but %zd were given", fname,
                     n, nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = i < nargs ? PyTuple_GET_ITEM(args, i) : NULL;
    if (kwds) {
        PyObject *kw, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwds, &pos, &kw, &value)) {
            Py_ssize_t i = 0;
            while (i < n && (!PyUnicode_Check(kw) || PyUnicode_CompareWithASCIIString(kw, names[i]) != 0))
                i++;
            if (i == n) {
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%S'", fname, kw);
                return -1;
            }
            if (out[i]) {
                PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, names[i]);
                return -1;
            }
            out[i] = value;
        }
    }
    return check_missing(fname, names, required, out);
}

/* A byte buffer argument: bytes are read in place; anything else through a buffer view, held until
   buffer_release. What is accepted, and the exception for what is not, follow cryptography 48, whose
   Rust code takes buffers through PyO3 (probed: docs/python.md lists every case):
     1. the object must export a buffer with PyBUF_FULL_RO (any failure, e.g. a released memoryview,
        is the TypeError "Cannot convert"), with a shape and strides (so 0-dimensional memoryviews
        and ctypes objects, which export no strides, are refused), of 1-byte items 'B' or 'c';
     2. buf must be writable (TypeError), checked before
     3. contiguity (BufferError), so a read-only non-contiguous buf is a TypeError. */
typedef struct {
    uint8_t *p;
    Py_ssize_t len;
    int has_view;
    Py_buffer view;
} buffer;

static void buffer_release(buffer *b)
{
    if (b->has_view) {
        PyBuffer_Release(&b->view);
        b->has_view = 0;
    }
}

/* PyO3's test for u8 items: "B" or "c", alone or after a byte-order mark that it takes as the native
   order: '@', '=' and '>' (and '!' on a big-endian CPU); so on x86-64 "<B" (ctypes' format, what a
   memoryview of a ctypes array carries) is refused, ">B" accepted. Byte order means nothing for
   single bytes; the rule is kept because cryptography 48 keeps it. */
static int byte_format(const char *f)
{
    if (f == NULL)
        return 1;
    if (f[0] != '\0' && f[1] != '\0') {
        int native = f[0] == '@' || f[0] == '=' || f[0] == '>';
#if PY_BIG_ENDIAN
        native = native || f[0] == '!';
#endif
        if (!native)
            return 0;
        f++;
    }
    return (f[0] == 'B' || f[0] == 'c') && f[1] == '\0';
}

static int cannot_convert(const char *prefix, PyObject *obj)
{
    PyErr_Format(PyExc_TypeError, "%sCannot convert \"%R\" instance to a buffer.%s", prefix,
                 (PyObject *)Py_TYPE(obj),
                 PyUnicode_Check(obj) ? "\nDid you mean to pass a bytestring instead?" : "");
    return -1;
}

/* prefix: "argument 'data': " and the like, put before TypeError messages. */
static int buffer_get(buffer *b, PyObject *obj, const char *prefix, int writable)
{
    b->has_view = 0;
    if (!writable && PyBytes_CheckExact(obj)) {
        b->p = (uint8_t *)PyBytes_AS_STRING(obj);
        b->len = PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (!PyObject_CheckBuffer(obj))
        return cannot_convert(prefix, obj);
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_FULL_RO) != 0) {
        PyErr_Clear(); /* cryptography reports every export failure as this TypeError */
        return cannot_convert(prefix, obj);
    }
    b->has_view = 1;
    if (b->view.shape == NULL || b->view.strides == NULL || b->view.itemsize != 1 ||
        !byte_format(b->view.format)) {
        buffer_release(b);
        return cannot_convert(prefix, obj);
    }
    if (writable && b->view.readonly) {
        buffer_release(b);
        PyErr_Format(PyExc_TypeError, "%sBuffer is not writable.", prefix);
        return -1;
    }
    if (!PyBuffer_IsContiguous(&b->view, 'C')) {
        buffer_release(b);
        PyErr_SetString(PyExc_BufferError, "Buffer is not contiguous.");
        return -1;
    }
    b->p = b->view.buf;
    b->len = b->view.len;
    return 0;
}

/* An int argument as cryptography's (Rust usize) conversion takes it: __index__, no negatives. */
static int size_arg(PyObject *obj, const char *name, unsigned long long *value)
{
    PyObject *index = PyNumber_Index(obj);
    if (!index) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Format(PyExc_TypeError, "argument '%s': '%.200s' object cannot be interpreted as an integer",
                         name, Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    *value = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
    if (*value == (unsigned long long)-1 && PyErr_Occurred())
        return -1; /* OverflowError: "can't convert negative int to unsigned" / "int too big to convert" */
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Construction                                                                                    */

static PyObject *aead_new_common(PyTypeObject *type, const aead_class *cls, PyObject *key_obj,
                                 size_t tag_len)
{
    buffer key;
    if (buffer_get(&key, key_obj, cls->key_arg, 0) != 0)
        return NULL;
    if (key.len != 16 && key.len != 24 && key.len != 32) {
        buffer_release(&key);
        PyErr_SetString(PyExc_ValueError, cls->key_error);
        return NULL;
    }
    module_state *st = PyType_GetModuleState(type);
    if (!st) {
        buffer_release(&key);
        return NULL;
    }
    if (cls->kind == KIND_GCM_SIV && key.len == 24 && !st->gcm_siv_192) {
        buffer_release(&key);
        PyErr_SetString(PyExc_NotImplementedError, "AES-192-GCM-SIV is not supported by this vg build yet");
        return NULL;
    }
    AeadObject *self = (AeadObject *)type->tp_alloc(type, 0);
    if (!self) {
        buffer_release(&key);
        return NULL;
    }
    if ((uintptr_t)&self->key % 16 != 0) {
        self->cls = NULL;
        buffer_release(&key);
        Py_DECREF(self);
        PyErr_SetString(PyExc_SystemError, "vg: the object allocator gave a key context under 16-byte alignment");
        return NULL;
    }
    int rc = cls->init(&self->key, key.p, (size_t)key.len);
    buffer_release(&key);
    if (rc != VG_OK) {
        self->cls = NULL;
        Py_DECREF(self);
        if (rc == VG_ERR_KEY_LENGTH)
            PyErr_SetString(PyExc_ValueError, cls->key_error);
        else
            PyErr_Format(PyExc_RuntimeError, "vg: %s", vg_strerror(rc));
        return NULL;
    }
    self->cls = cls;
    self->tag_len = tag_len;
    return (PyObject *)self;
}

static PyObject *gcm_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"key"};
    PyObject *a[1];
    if (parse_tuple_dict("AESGCM.__new__", names, 1, 1, args, kwds, a) != 0)
        return NULL;
    return aead_new_common(type, &gcm_class, a[0], 16);
}

static PyObject *siv_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"key"};
    PyObject *a[1];
    if (parse_tuple_dict("AESGCMSIV.__new__", names, 1, 1, args, kwds, a) != 0)
        return NULL;
    return aead_new_common(type, &siv_class, a[0], 16);
}

static PyObject *ccm_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static const char *const names[] = {"key", "tag_length"};
    PyObject *a[2];
    if (parse_tuple_dict("AESCCM.__new__", names, 2, 1, args, kwds, a) != 0)
        return NULL;
    /* cryptography converts both arguments before checking either. */
    buffer key;
    if (buffer_get(&key, a[0], "", 0) != 0)
        return NULL;
    Py_ssize_t key_len = key.len;
    buffer_release(&key);
    unsigned long long tag_len = 16;
    if (a[1] && a[1] != Py_None && size_arg(a[1], "tag_length", &tag_len) != 0)
        return NULL;
    if (key_len != 16 && key_len != 24 && key_len != 32) {
        PyErr_SetString(PyExc_ValueError, ccm_class.key_error);
        return NULL;
    }
    if (tag_len < 4 || tag_len > 16 || tag_len % 2 != 0) {
        PyErr_SetString(PyExc_ValueError, "Invalid tag_length");
        return NULL;
    }
    return aead_new_common(type, &ccm_class, a[0], (size_t)tag_len);
}

static void aead_dealloc(AeadObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    if (self->cls) /* NULL: the key was never set up (tp_alloc zeroed it) */
        self->cls->wipe(&self->key);
    type->tp_free((PyObject *)self);
    Py_DECREF(type); /* an instance of a heap type holds a reference to it */
}

static PyObject *generate_key(PyObject *cls, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"bit_length"};
    PyObject *a[1];
    char fname[64];
    PyOS_snprintf(fname, sizeof fname, "%s.generate_key", ((PyTypeObject *)cls)->tp_name + sizeof "vg.aead." - 1);
    if (parse_args(fname, names, 1, 1, args, nargs, kwnames, a) != 0)
        return NULL;
    unsigned long long bits;
    if (size_arg(a[0], "bit_length", &bits) != 0)
        return NULL;
    if (bits != 128 && bits != 192 && bits != 256) {
        PyErr_SetString(PyExc_ValueError, "bit_length must be 128, 192, or 256");
        return NULL;
    }
    module_state *st = PyType_GetModuleState((PyTypeObject *)cls);
    if (!st)
        return NULL;
    return PyObject_CallFunction(st->urandom, "n", (Py_ssize_t)(bits / 8));
}

/* ---------------------------------------------------------------------------------------------- */
/* encrypt, decrypt, encrypt_into, decrypt_into                                                    */

static int nonce_ok(const aead_class *cls, Py_ssize_t n)
{
    return (size_t)n >= cls->nonce_min && (size_t)n <= cls->nonce_max;
}

/* CCM: the message length must fit the L = 15 - nonce_len bytes of the length field. */
static int ccm_too_long(Py_ssize_t nonce_len, Py_ssize_t len, int strict)
{
    int l = 15 - (int)nonce_len;
    if (l >= 8)
        return 0;
    unsigned long long limit = 1ULL << (8 * l);
    return strict ? (unsigned long long)len >= limit : (unsigned long long)len > limit;
}

/* Returns 1 if [a, a + alen) and [b, b + blen) share a byte. */
static int overlaps(const uint8_t *a, Py_ssize_t alen, const uint8_t *b, Py_ssize_t blen)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return alen > 0 && blen > 0 && x < y + (uintptr_t)blen && y < x + (uintptr_t)alen;
}

static const char *const names_plain[] = {"nonce", "data", "associated_data"};
static const char *const names_into[] = {"nonce", "data", "associated_data", "buf"};

static PyObject *aead_call(AeadObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                           int decrypt, int into)
{
    const aead_class *cls = self->cls;
    char fname[48];
    static const char *const method[2][2] = {{"encrypt", "encrypt_into"}, {"decrypt", "decrypt_into"}};
    PyObject *a[4];
    PyObject *result = NULL;
    buffer nonce = {0}, data = {0}, aad = {0}, buf = {0};
    uint8_t *copy = NULL;

    if (!into && !kwnames && nargs == 3) { /* the common call: three positional arguments */
        a[0] = args[0];
        a[1] = args[1];
        a[2] = args[2];
    } else {
        PyOS_snprintf(fname, sizeof fname, "%s.%s", cls->name, method[decrypt][into]);
        if (parse_args(fname, into ? names_into : names_plain, into ? 4 : 3, into ? 4 : 3, args, nargs,
                       kwnames, a) != 0)
            return NULL;
    }
    if (buffer_get(&nonce, a[0], "argument 'nonce': ", 0) != 0)
        goto out;
    if (buffer_get(&data, a[1], "argument 'data': ", 0) != 0)
        goto out;
    if (a[2] != Py_None && buffer_get(&aad, a[2], "argument 'associated_data': ", 0) != 0)
        goto out;
    if (into && buffer_get(&buf, a[3], "argument 'buf': ", 1) != 0)
        goto out;

    Py_ssize_t out_len;
    if (!decrypt) {
        if (data.len > VG_PY_MAX_LEN) {
            PyErr_SetString(PyExc_OverflowError, "Data or associated data too long. Max 2**31 - 1 bytes");
            goto out;
        }
        if (!nonce_ok(cls, nonce.len)) {
            PyErr_SetString(PyExc_ValueError, cls->nonce_error);
            goto out;
        }
        /* cryptography lets a message of exactly 2^(8L) bytes through to OpenSSL, which fails with
           InternalError; vg refuses it here with the same ValueError as a longer one. */
        if (cls->kind == KIND_CCM && ccm_too_long(nonce.len, data.len, 1)) {
            PyErr_SetString(PyExc_ValueError, "Data too long for nonce");
            goto out;
        }
        out_len = data.len + (Py_ssize_t)self->tag_len;
    } else {
        if (!nonce_ok(cls, nonce.len)) {
            PyErr_SetString(PyExc_ValueError, cls->nonce_error);
            goto out;
        }
        if ((size_t)data.len < self->tag_len) {
            set_invalid_tag(Py_TYPE(self));
            goto out;
        }
        out_len = data.len - (Py_ssize_t)self->tag_len;
        if (cls->kind == KIND_CCM && ccm_too_long(nonce.len, out_len, 0)) {
            PyErr_SetString(PyExc_ValueError, "Data too long for nonce");
            goto out;
        }
    }
    uint8_t *out_p;
    if (into) {
        if (buf.len != out_len) {
            PyErr_Format(PyExc_ValueError, "buffer must be %zd bytes", out_len);
            goto out;
        }
        out_p = buf.p;
    } else {
        result = PyBytes_FromStringAndSize(NULL, out_len);
        if (!result)
            goto out;
        out_p = (uint8_t *)PyBytes_AS_STRING(result);
    }
    if (aad.len > VG_PY_MAX_LEN) {
        PyErr_SetString(PyExc_OverflowError, "Data or associated data too long. Max 2**31 - 1 bytes");
        Py_CLEAR(result);
        goto out;
    }

    /* vg allows in == out and refuses any other overlap of the message and the output (a caller's
       buffer can partly overlap data only through *_into): read the message from a copy then. */
    const uint8_t *in_p = data.p;
    Py_ssize_t msg_len = decrypt ? out_len : data.len;
    if (into && in_p != out_p && overlaps(in_p, msg_len, out_p, out_len)) {
        copy = PyMem_Malloc((size_t)data.len);
        if (!copy) {
            PyErr_NoMemory();
            goto out;
        }
        memcpy(copy, data.p, (size_t)data.len);
        in_p = copy;
    }

    int rc;
    int nogil = data.len + aad.len >= cls->nogil_min;
    PyThreadState *ts = nogil ? PyEval_SaveThread() : NULL;
    if (!decrypt)
        rc = cls->seal(&self->key, nonce.p, (size_t)nonce.len, aad.p, (size_t)aad.len, in_p,
                       (size_t)data.len, out_p, out_p + data.len, self->tag_len);
    else
        rc = cls->open(&self->key, nonce.p, (size_t)nonce.len, aad.p, (size_t)aad.len, in_p,
                       (size_t)out_len, in_p + out_len, self->tag_len, out_p);
    if (nogil)
        PyEval_RestoreThread(ts);

    if (rc != VG_OK) {
        Py_CLEAR(result);
        if (rc == VG_ERR_AUTH || (decrypt && rc == VG_ERR_LENGTH))
            set_invalid_tag(Py_TYPE(self)); /* a failed open has zeroed the output */
        else if (rc == VG_ERR_LENGTH && cls->kind == KIND_CCM)
            PyErr_SetString(PyExc_ValueError, "Data too long for nonce");
        else if (rc == VG_ERR_LENGTH)
            PyErr_SetString(PyExc_OverflowError, "Data or associated data too long. Max 2**31 - 1 bytes");
        else if (rc == VG_ERR_NONCE_LENGTH)
            PyErr_SetString(PyExc_ValueError, cls->nonce_error);
        else if (rc == VG_ERR_TAG_LENGTH)
            PyErr_SetString(PyExc_ValueError, "Invalid tag_length");
        else
            PyErr_Format(PyExc_SystemError, "vg: unexpected error: %s", vg_strerror(rc));
        goto out;
    }
    if (into)
        result = PyLong_FromSsize_t(out_len);

out:
    if (copy) { /* it holds the caller's plaintext (encrypt_into): not left in freed memory */
        wipe(copy, (size_t)data.len);
        PyMem_Free(copy);
    }
    buffer_release(&buf);
    buffer_release(&aad);
    buffer_release(&data);
    buffer_release(&nonce);
    return result;
}

static PyObject *aead_encrypt(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return aead_call((AeadObject *)self, args, nargs, kwnames, 0, 0);
}
static PyObject *aead_decrypt(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return aead_call((AeadObject *)self, args, nargs, kwnames, 1, 0);
}
static PyObject *aead_encrypt_into(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return aead_call((AeadObject *)self, args, nargs, kwnames, 0, 1);
}
static PyObject *aead_decrypt_into(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return aead_call((AeadObject *)self, args, nargs, kwnames, 1, 1);
}

#define FASTKW METH_FASTCALL | METH_KEYWORDS
static PyMethodDef aead_methods[] = {
    {"generate_key", (PyCFunction)(void (*)(void))generate_key, FASTKW | METH_CLASS,
     PyDoc_STR("generate_key($cls, bit_length)\n--\n\nA new random key of bit_length (128, 192 or 256) bits.")},
    {"encrypt", (PyCFunction)(void (*)(void))aead_encrypt, FASTKW,
     PyDoc_STR("encrypt($self, nonce, data, associated_data)\n--\n\nCiphertext followed by the tag.")},
    {"decrypt", (PyCFunction)(void (*)(void))aead_decrypt, FASTKW,
     PyDoc_STR("decrypt($self, nonce, data, associated_data)\n--\n\nThe plaintext; InvalidTag if data is not genuine.")},
    {"encrypt_into", (PyCFunction)(void (*)(void))aead_encrypt_into, FASTKW,
     PyDoc_STR("encrypt_into($self, nonce, data, associated_data, buf)\n--\n\nWrites ciphertext and tag into buf; returns their length.")},
    {"decrypt_into", (PyCFunction)(void (*)(void))aead_decrypt_into, FASTKW,
     PyDoc_STR("decrypt_into($self, nonce, data, associated_data, buf)\n--\n\nWrites the plaintext into buf; returns its length. On InvalidTag buf is zeroed.")},
    {NULL, NULL, 0, NULL},
};

/* Heap types, made per interpreter by the module's exec slot (so each can find its module's state).
   Without Py_TPFLAGS_BASETYPE they cannot be subclassed, as cryptography's cannot; immutable (3.10+)
   as the static types of vg 0.2 were. */
#ifdef Py_TPFLAGS_IMMUTABLETYPE
#define AEAD_FLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE)
#else
#define AEAD_FLAGS Py_TPFLAGS_DEFAULT
#endif
#define AEAD_SPEC(var, tname, newfn, keytype, doc)                                  \
    static PyType_Slot var##_slots[] = {                                            \
        {Py_tp_dealloc, (void *)aead_dealloc},                                      \
        {Py_tp_doc, (void *)PyDoc_STR(doc)},                                        \
        {Py_tp_methods, aead_methods},                                              \
        {Py_tp_new, (void *)newfn},                                                 \
        {0, NULL},                                                                  \
    };                                                                              \
    static PyType_Spec var = {                                                      \
        "vg.aead." tname, (int)(offsetof(AeadObject, key) + sizeof(keytype)), 0,    \
        AEAD_FLAGS, var##_slots,                                                    \
    }
AEAD_SPEC(gcm_spec, "AESGCM", gcm_new, vg_aes_gcm_key,
          "AESGCM(key)\n--\n\nAES-GCM (SP 800-38D) with vg: 16-, 24- or 32-byte keys, 8..128-byte nonces, 16-byte tags.");
AEAD_SPEC(siv_spec, "AESGCMSIV", siv_new, vg_aes_gcm_siv_key,
          "AESGCMSIV(key)\n--\n\nAES-GCM-SIV (RFC 8452) with vg: 12-byte nonces, 16-byte tags.");
AEAD_SPEC(ccm_spec, "AESCCM", ccm_new, vg_aes_ccm_key,
          "AESCCM(key, tag_length=16)\n--\n\nAES-CCM (SP 800-38C) with vg: 7..13-byte nonces, even tags of 4..16 bytes.");

/* ---------------------------------------------------------------------------------------------- */
/* Module                                                                                          */

static PyObject *implementation(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(vg_impl_name());
}

static PyObject *implementations(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    const char *names[16];
    size_t n = vg_impl_list(names, 16);
    if (n > 16)
        n = 16;
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *s = PyUnicode_FromString(names[i]);
        if (!s) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

static PyMethodDef module_methods[] = {
    {"implementation", implementation, METH_NOARGS,
     PyDoc_STR("implementation()\n--\n\nThe name of the vg implementation new keys use (vg_impl_name).")},
    {"implementations", implementations, METH_NOARGS,
     PyDoc_STR("implementations()\n--\n\nThe implementations this CPU can run, best first (vg_impl_list).")},
    {NULL, NULL, 0, NULL},
};

/* Does vg_aes_gcm_siv_init take a 24-byte key? Asked of the library, not assumed. (A local key: no
   mutable static is shared between interpreters.) */
static int probe_gcm_siv_192(void)
{
    vg_aes_gcm_siv_key k;
    static const uint8_t zero[24];
    int rc = vg_aes_gcm_siv_init(&k, zero, sizeof zero);
    vg_aes_gcm_siv_key_wipe(&k);
    return rc == VG_OK;
}

/* PyModule_AddObjectRef is 3.10+; this keeps the reference as it does on every version (>= 3.9). */
static int add_object(PyObject *m, const char *name, PyObject *value)
{
    Py_INCREF(value);
    if (PyModule_AddObject(m, name, value) < 0) {
        Py_DECREF(value);
        return -1;
    }
    return 0;
}

static PyObject *import_attr(const char *module, const char *name)
{
    PyObject *mod = PyImport_ImportModule(module);
    if (!mod)
        return NULL;
    PyObject *value = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    return value;
}

static int add_type(PyObject *m, PyType_Spec *spec)
{
    PyObject *type = PyType_FromModuleAndSpec(m, spec, NULL);
    if (!type)
        return -1;
    int rc = add_object(m, strrchr(spec->name, '.') + 1, type);
    Py_DECREF(type);
    return rc;
}

/* VG_IMPL as the library read it, if the library ignored it (vg_impl_env_status), else None: the
   package (vg/__init__.py) turns it into a warning, since the library itself prints nothing. */
static PyObject *impl_env_ignored(void)
{
    const char *value = vg_impl_env_status() == VG_ERR_UNSUPPORTED ? getenv("VG_IMPL") : NULL;
    if (!value)
        Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(value);
}

/* Runs once per interpreter that imports vg._vg. */
static int vg_exec(PyObject *m)
{
    module_state *st = PyModule_GetState(m);
    st->invalid_tag = import_attr("vg._exceptions", "InvalidTag");
    if (!st->invalid_tag)
        return -1;
    st->urandom = import_attr("os", "urandom");
    if (!st->urandom)
        return -1;
    st->gcm_siv_192 = probe_gcm_siv_192();
    PyObject *ignored = impl_env_ignored();
    if (!ignored)
        return -1;
    int rc = add_object(m, "impl_env_ignored", ignored);
    Py_DECREF(ignored);
    if (rc < 0 || add_type(m, &gcm_spec) < 0 || add_type(m, &siv_spec) < 0 || add_type(m, &ccm_spec) < 0 ||
        add_object(m, "InvalidTag", st->invalid_tag) < 0 ||
        PyModule_AddStringConstant(m, "vg_version", vg_version()) < 0 ||
        PyModule_AddIntConstant(m, "gcm_siv_192", st->gcm_siv_192) < 0 ||
        PyModule_AddIntConstant(m, "nogil_min_gcm", VG_PY_NOGIL_MIN_GCM) < 0 ||
        PyModule_AddIntConstant(m, "nogil_min_ccm", VG_PY_NOGIL_MIN_CCM) < 0)
        return -1;
    return 0;
}

static int vg_traverse(PyObject *m, visitproc visit, void *arg)
{
    module_state *st = PyModule_GetState(m);
    if (!st)
        return 0;
    Py_VISIT(st->invalid_tag);
    Py_VISIT(st->urandom);
    return 0;
}

static int vg_clear(PyObject *m)
{
    module_state *st = PyModule_GetState(m);
    if (!st)
        return 0;
    Py_CLEAR(st->invalid_tag);
    Py_CLEAR(st->urandom);
    return 0;
}

static void vg_free(void *m)
{
    vg_clear((PyObject *)m);
}

static PyModuleDef_Slot vg_slots[] = {
    {Py_mod_exec, (void *)vg_exec},
#ifdef Py_mod_multiple_interpreters
    /* 3.12+: interpreters with their own GIL may import it too. They share no Python object (all are
       in the module state) and no mutable C state of this file; vg's own (the implementation choice,
       the availability cache) is atomic, as it must be already for calls made with the GIL released. */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

static struct PyModuleDef vg_module = {
    PyModuleDef_HEAD_INIT, "vg._vg", "vg's CPython extension (use vg and vg.aead).", sizeof(module_state),
    module_methods, vg_slots, vg_traverse, vg_clear, vg_free,
};

PyMODINIT_FUNC PyInit__vg(void)
{
    return PyModuleDef_Init(&vg_module);
}
