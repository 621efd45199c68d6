//===- JsonTest.cpp - The runtime's minimal JSON reader -------------------===//
#include "weft_rt_json.h"

#include <gtest/gtest.h>

using namespace weft::rt;

TEST(Json, ParsesEveryKindOfValue) {
  JsonValue v;
  std::string error;
  ASSERT_TRUE(parseJson(R"( {"a": [1, -2.5e3, true, false, null],
      "s": "x\"y\\n\u00e9", "o": {}, "e": []} )",
                        v, &error))
      << error;
  ASSERT_EQ(v.kind, JsonValue::Kind::Object);
  const JsonValue *a = v.get("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 5u);
  EXPECT_TRUE(a->items[0].isCount());
  EXPECT_EQ(a->items[1].number, -2500.0);
  EXPECT_FALSE(a->items[1].isCount());
  EXPECT_TRUE(a->items[2].boolean);
  EXPECT_EQ(a->items[4].kind, JsonValue::Kind::Null);
  EXPECT_EQ(v.get("s")->string, "x\"y\\n\xc3\xa9");
  EXPECT_EQ(v.get("o")->kind, JsonValue::Kind::Object);
  EXPECT_EQ(v.get("missing"), nullptr);
  EXPECT_EQ(a->get("x"), nullptr); // not an object
}

TEST(Json, ErrorsSayWhatAndWhere) {
  JsonValue v;
  std::string error;
  EXPECT_FALSE(parseJson("{\"a\": 1,}", v, &error));
  EXPECT_EQ(error, "expected '\"' at byte 8");
  EXPECT_FALSE(parseJson("[1, 2", v, &error));
  EXPECT_EQ(error, "expected ']' at byte 5");
  EXPECT_FALSE(parseJson("{} x", v, &error));
  EXPECT_EQ(error, "unexpected text after the JSON value at byte 3");
  EXPECT_FALSE(parseJson("nul", v, &error));
  EXPECT_FALSE(parseJson("", v, &error));
  EXPECT_EQ(error, "unexpected end of input at byte 0");
  EXPECT_FALSE(parseJson("\"\\uZZ12\"", v, &error));
  EXPECT_EQ(error, "expected 4 hex digits after \\u at byte 3");
  EXPECT_FALSE(parseJson(std::string(100, '['), v, &error));
  EXPECT_EQ(error, "JSON nested deeper than 64 levels at byte 64");
}

TEST(Json, DeepNestingIsAnErrorNotAStackOverflow) {
  JsonValue v;
  std::string error;
  const int deep = 50000;
  EXPECT_FALSE(parseJson(std::string(deep, '[') + std::string(deep, ']'), v,
                         &error));
  EXPECT_EQ(error, "JSON nested deeper than 64 levels at byte 64");
  std::string objects;
  for (int i = 0; i < deep; ++i)
    objects += "{\"a\": ";
  objects += "1" + std::string(deep, '}');
  EXPECT_FALSE(parseJson(objects, v, &error));
  EXPECT_EQ(error, "JSON nested deeper than 64 levels at byte 384");
  // 64 levels, a scalar innermost, are fine.
  EXPECT_TRUE(parseJson(std::string(64, '[') + "1" + std::string(64, ']'), v,
                        &error))
      << error;
}
