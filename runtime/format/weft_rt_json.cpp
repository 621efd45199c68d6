//===- weft_rt_json.cpp - Minimal JSON reader for model files -------------===//
#include "weft_rt_json.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace weft::rt {

namespace {
/// Nesting deeper than this is rejected instead of overflowing the stack.
constexpr int kMaxDepth = 64;

class Parser {
public:
  explicit Parser(const std::string &text) : s(text) {}
  std::string error;

  bool document(JsonValue &out) {
    if (!value(out, 0))
      return false;
    skipSpace();
    while (i < s.size() && s[i] == '\0') // safetensors pads with NULs too
      ++i;
    return i == s.size() || fail("unexpected text after the JSON value");
  }

private:
  const std::string &s;
  size_t i = 0;

  bool fail(const std::string &what) {
    if (error.empty())
      error = what + " at byte " + std::to_string(i);
    return false;
  }
  void skipSpace() {
    while (i < s.size() &&
           (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
      ++i;
  }
  bool consume(char c) {
    skipSpace();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  bool expect(char c) {
    return consume(c) || fail(std::string("expected '") + c + "'");
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (s.compare(i, n, word) != 0)
      return fail("unexpected character");
    i += n;
    return true;
  }

  bool value(JsonValue &out, int depth) {
    skipSpace();
    if (i >= s.size())
      return fail("unexpected end of input");
    char c = s[i];
    // `depth` containers enclose this value; it may open one more.
    if ((c == '{' || c == '[') && depth >= kMaxDepth)
      return fail("JSON nested deeper than " + std::to_string(kMaxDepth) +
                  " levels");
    if (c == '{')
      return object(out, depth);
    if (c == '[')
      return array(out, depth);
    if (c == '"') {
      out.kind = JsonValue::Kind::String;
      return string(out.string);
    }
    if (c == 't' || c == 'f') {
      out.kind = JsonValue::Kind::Bool;
      out.boolean = c == 't';
      return literal(c == 't' ? "true" : "false");
    }
    if (c == 'n') {
      out.kind = JsonValue::Kind::Null;
      return literal("null");
    }
    return number(out);
  }

  bool number(JsonValue &out) {
    const char *begin = s.c_str() + i;
    char *end = nullptr;
    double v = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(v))
      return fail("expected a value");
    i += size_t(end - begin);
    out.kind = JsonValue::Kind::Number;
    out.number = v;
    return true;
  }

  static int hexDigit(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }

  static void appendUtf8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xc0 | (code >> 6));
      out += char(0x80 | (code & 0x3f));
    } else {
      out += char(0xe0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3f));
      out += char(0x80 | (code & 0x3f));
    }
  }

  bool string(std::string &out) {
    if (!expect('"'))
      return false;
    out.clear();
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= s.size())
        break;
      char e = s[i++];
      switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        unsigned code = 0;
        for (int k = 0; k < 4; ++k, ++i) {
          int digit = i < s.size() ? hexDigit(s[i]) : -1;
          if (digit < 0)
            return fail("expected 4 hex digits after \\u");
          code = code * 16 + unsigned(digit);
        }
        appendUtf8(out, code);
        break;
      }
      default:
        out += e; // \" \\ \/
      }
    }
    return expect('"');
  }

  bool array(JsonValue &out, int depth) {
    out.kind = JsonValue::Kind::Array;
    ++i; // '['
    if (consume(']'))
      return true;
    do {
      out.items.emplace_back();
      if (!value(out.items.back(), depth + 1))
        return false;
    } while (consume(','));
    return expect(']');
  }

  bool object(JsonValue &out, int depth) {
    out.kind = JsonValue::Kind::Object;
    ++i; // '{'
    if (consume('}'))
      return true;
    do {
      std::string key;
      skipSpace();
      if (!string(key) || !expect(':'))
        return false;
      out.members.emplace_back(std::move(key), JsonValue());
      if (!value(out.members.back().second, depth + 1))
        return false;
    } while (consume(','));
    return expect('}');
  }
};
} // namespace

const JsonValue *JsonValue::get(const std::string &key) const {
  for (const auto &[name, value] : members)
    if (name == key)
      return &value;
  return nullptr;
}

bool JsonValue::isCount() const {
  return kind == Kind::Number && number >= 0 && number <= 9007199254740992.0 &&
         std::floor(number) == number;
}

bool parseJson(const std::string &text, JsonValue &out, std::string *error) {
  Parser parser(text);
  out = JsonValue();
  if (parser.document(out))
    return true;
  if (error)
    *error = parser.error;
  return false;
}

bool readJsonObject(const std::string &path, JsonValue &out,
                    std::string *error) {
  auto fail = [&](const std::string &what) {
    if (error)
      *error = path + ": " + what;
    return false;
  };
  std::ifstream in(path);
  if (!in)
    return fail("cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  std::string problem;
  if (!parseJson(text.str(), out, &problem))
    return fail(problem);
  if (out.kind != JsonValue::Kind::Object)
    return fail("not a JSON object");
  return true;
}

} // namespace weft::rt
