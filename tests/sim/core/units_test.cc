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
      {"4kb", 4000},
      {"1GB", 1000000000},
      {"1 GB", 1000000000},
      {"1 GiB", int64_t{1} << 30},
      {"1.5TB", 1500000000000},
      {"512B", 512},
      {"1e9", 1000000000},
      {"1.5e3", 1500},
      {"2E+6", 2000000},
      {"9e18", 9000000000000000000},
      {"1M", 1 << 20},
      {"1.5G", (int64_t{3} << 30) / 2},
      {"0.5K", 512},
      {".5K", 512},
      {"2.K", 2048},
      {"1.000K", 1024},
      {"2T", int64_t{2} << 40},
      {"8388607T", int64_t{8388607} << 40},
      {"9223372036854775807", INT64_MAX},
      // Fraction digits and an exponent together (the exponent cancels them first).
      {"8.811000430648648668E18", 8811000430648648668},
      {"0.000000000000000001e18", 1},
      {"922337203685477580.7e1", INT64_MAX},
  };
  for (const Good& c : cases) {
    EXPECT_EQ(ParseSize(c.text, "--bs"), c.bytes) << c.text;
  }
}

TEST(ParseSizeTest, FioGrammarInvertsTheUnitsAsFioDoes) {
  // fio's HOWTO, kb_base=1024 (its default): SI prefixes are powers of 2, IEC ones powers of 10.
  EXPECT_EQ(ParseSize("4k", "bs", SizeGrammar::kFio), 4096);
  EXPECT_EQ(ParseSize("4KB", "bs", SizeGrammar::kFio), 4096);
  EXPECT_EQ(ParseSize("4KiB", "bs", SizeGrammar::kFio), 4000);
  EXPECT_EQ(ParseSize("4KB", "bs"), 4000);
  EXPECT_EQ(ParseSize("4KiB", "bs"), 4096);
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
      {"1e3K", "--bs: \"1e3K\" is not a size"},
      {"1e", "--bs: \"1e\" is not a size"},
      {"1e-3", "--bs: \"1e-3\" is not a size"},
      {"1.5e0", "--bs: \"1.5e0\" is not a whole number of bytes"},
      {"1e19", "--bs: \"1e19\" is too large"},
      {"1  GB", "--bs: \"1  GB\" is not a size"},
      {"4KBB", "--bs: \"4KBB\" is not a size"},
      {" 4K", "--bs: \" 4K\" is not a size"},
      {"4K ", "--bs: \"4K \" is not a size"},
      {"1.5", "--bs: \"1.5\" is not a whole number of bytes"},
      {"0.3K", "--bs: \"0.3K\" is not a whole number of bytes"},
      {"8388608T", "--bs: \"8388608T\" is too large"},
      {"9223372036854775808", "--bs: \"9223372036854775808\" is too large"},
      {"99999999999999999999999", "--bs: \"99999999999999999999999\" is too large"},
      {"1.00000000000000000000000000001", "has too many decimal places"},
      // Found by the units fuzzer: 23 digits times 10^18 passed 2^127.
      {"8.8110004306486486686538E18", "is not a whole number of bytes"},
      {"9.2233720368547758075E18", "is not a whole number of bytes"},
      {"9.22337203685477581E18", "is too large"},
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
