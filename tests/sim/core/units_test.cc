#include "sim/core/units.h"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "sim/core/status.h"

namespace ziosim {
namespace {

struct Good {
  const char* text;
  int64_t bytes;
};

TEST(ParseSizeTest, AcceptsPlainNumbersAndBinarySuffixes) {
  const Good cases[] = {
      {"0", 0},
      {"4096", 4096},
      {"007", 7},
      {"4K", 4096},
      {"4k", 4096},
      {"4KiB", 4096},
      {"4kb", 4096},
      {"1M", 1 << 20},
      {"1.5G", (int64_t{3} << 30) / 2},
      {"0.5K", 512},
      {".5K", 512},
      {"2.K", 2048},
      {"1.000K", 1024},
      {"2T", int64_t{2} << 40},
      {"8388607T", int64_t{8388607} << 40},
      {"9223372036854775807", INT64_MAX},
  };
  for (const Good& c : cases) {
    EXPECT_EQ(ParseSize(c.text, "--bs"), c.bytes) << c.text;
  }
}

struct Bad {
  const char* text;
  const char* message;
};

TEST(ParseSizeTest, RejectsWithTheFieldAndTheText) {
  const Bad cases[] = {
      {"", "--bs: empty size"},
      {"-4K", "--bs: \"-4K\" is negative"},
      {"4X", "--bs: \"4X\" is not a size"},
      {"4KK", "--bs: \"4KK\" is not a size"},
      {"K", "--bs: \"K\" is not a size"},
      {".", "--bs: \".\" is not a size"},
      {"nan", "--bs: \"nan\" is not a size"},
      {"inf", "--bs: \"inf\" is not a size"},
      {"1e3", "--bs: \"1e3\" is not a size"},
      {" 4K", "--bs: \" 4K\" is not a size"},
      {"4K ", "--bs: \"4K \" is not a size"},
      {"1.5", "--bs: \"1.5\" is not a whole number of bytes"},
      {"0.3K", "--bs: \"0.3K\" is not a whole number of bytes"},
      {"8388608T", "--bs: \"8388608T\" is too large"},
      {"9223372036854775808", "--bs: \"9223372036854775808\" is too large"},
      {"99999999999999999999999", "--bs: \"99999999999999999999999\" is too large"},
      {"1.00000000000000000000000000001", "has too many decimal places"},
  };
  for (const Bad& c : cases) {
    try {
      ParseSize(c.text, "--bs");
      ADD_FAILURE() << "accepted \"" << c.text << "\"";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
          << "for \"" << c.text << "\": " << e.what();
    }
  }
}

TEST(ParsePositiveSizeTest, RejectsZeroAndNegative) {
  EXPECT_EQ(ParsePositiveSize("4K", "--bs"), 4096);
  for (const char* text : {"0", "0K", "0.0", "-4K", "-0"}) {
    try {
      ParsePositiveSize(text, "--bs");
      ADD_FAILURE() << "accepted \"" << text << "\"";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "--bs: \"" + std::string(text) + "\" is not a positive size");
    }
  }
  EXPECT_THROW(ParsePositiveSize("4X", "--bs"), InputError);
}

}  // namespace
}  // namespace ziosim
