/**
 * The tokenizer (assembly/tokenize.ts) on the debug core, through its test hook `tokenizeText`: token kinds,
 * separators, segments, the token limit, numbers' values, words glued to numbers or to each other, letters of two
 * scripts, punctuation, and the hyphen of an abbreviation. What depends on the vocabulary runs over a small model
 * whose words the test names; the rest on a bare core, which knows no word.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WasmCore } from '../../../engine/wasm-core.js';
import { bareCore } from '../../helpers/engine.js';
import { engineOfModel, streetsModel } from '../../helpers/model.js';

/** tokenize.ts KIND_* and SEP_* */
const ALPHA = 1;
const DIGIT = 2;
const SPACE = 1;
const COMMA = 2;
const HYPHEN = 4;
const SLASH = 8;
const DOT = 16;
const PLAIN = 0;

interface Token {
  /** the input's characters the token was folded from */
  text: string;
  /** its length in the folded text */
  length: number;
  kind: number;
  sep: number;
  segment: number;
  value: number;
}

let bare: WasmCore;
let vocabulary: WasmCore;
beforeAll(async () => {
  bare = await bareCore();
  // Бориса Ельцина, Ак-Довурак (words ак, довурак), Новопашинский (written whole), Мира
  vocabulary = (await engineOfModel(streetsModel(['Бориса Ельцина', 'Ак-Довурак', 'Новопашинский', 'Мира']))).dict.core;
});

/** The tokens of `query` folded plainly; `glued` 1 splits two words glued (2: the last as typed), `compounds` 1 joins. */
function tokens(query: string, core: WasmCore = bare, glued = 0, compounds = 0): Token[] {
  const count = core.hooks.tokenizeText(core.write(query), PLAIN, glued, compounds);
  const r = core.result();
  return Array.from({ length: count }, (_, t) => {
    const at = 1 + t * 8;
    return { text: query.slice(r[at + 2], r[at + 3]), length: r[at + 1], kind: r[at + 4], sep: r[at + 5], segment: r[at + 6], value: r[at + 7] };
  });
}
const texts = (query: string, core?: WasmCore, glued?: number, compounds?: number): string[] => tokens(query, core, glued, compounds).map((t) => t.text);
const seps = (query: string): number[] => tokens(query).map((t) => t.sep);

describe('tokenize(len)', () => {
  describe('kinds', () => {
    it('splits runs of letters from runs of digits', () => {
      expect(tokens('Ленина 10а')).toEqual([
        { text: 'Ленина', length: 6, kind: ALPHA, sep: SPACE, segment: 0, value: 0 },
        { text: '10', length: 2, kind: DIGIT, sep: SPACE, segment: 0, value: 10 },
        { text: 'а', length: 1, kind: ALPHA, sep: 0, segment: 0, value: 0 },
      ]);
    });

    it('holds a number\'s value, saturated at 100000000', () => {
      expect(tokens('620075 007 123456789012').map((t) => t.value)).toEqual([620075, 7, 100000000]);
    });

    it('reads nothing in a string of spaces and punctuation', () => {
      expect(tokens('')).toEqual([]);
      expect(tokens(' , ; - / . ')).toEqual([]);
    });
  });

  describe('separators', () => {
    it('records what stood before each token', () => {
      expect(seps('а б')).toEqual([SPACE, SPACE]);
      expect(seps('10,2')).toEqual([SPACE, COMMA]);
      expect(seps('10;2')).toEqual([SPACE, COMMA]);
      expect(seps('10-2')).toEqual([SPACE, HYPHEN]);
      expect(seps('10/2')).toEqual([SPACE, SLASH]);
      expect(seps('12.5')).toEqual([SPACE, DOT]);
    });

    it('sets every separator seen between two tokens', () => {
      expect(seps('д. 5, кв 7')).toEqual([SPACE, DOT | SPACE, COMMA | SPACE, SPACE]);
      expect(seps('10 / 2')).toEqual([SPACE, SLASH | SPACE]);
    });

    it('marks a token glued to the one before with no separator', () => {
      expect(seps('дом53')).toEqual([SPACE, 0]);
      expect(seps('10а')).toEqual([SPACE, 0]);
    });

    it('gives the first token a space, whatever opens the string', () => {
      expect(seps(', - Ленина')).toEqual([SPACE]);
      expect(seps('/5')).toEqual([SPACE]);
    });

    it('folds dashes to a hyphen and a backslash to a slash', () => {
      expect(seps('10—2')).toEqual([SPACE, HYPHEN]);
      expect(seps('10–2')).toEqual([SPACE, HYPHEN]);
      expect(seps('10\\2')).toEqual([SPACE, SLASH]);
    });

    it('reads other punctuation as a space', () => {
      expect(seps('Ленина (10)')).toEqual([SPACE, SPACE]);
      expect(seps('Ленина!10')).toEqual([SPACE, SPACE]);
      expect(seps('"Мира"')).toEqual([SPACE]);
    });

    it('reads the word дробь between two numbers as their slash', () => {
      expect(tokens('37 дробь 15').map((t) => [t.text, t.sep])).toEqual([['37', SPACE], ['15', SPACE | SLASH]]);
      // not before a word, nor after one
      expect(texts('37 дробь корпус')).toEqual(['37', 'дробь', 'корпус']);
      expect(texts('улица дробь 15')).toEqual(['улица', 'дробь', '15']);
    });
  });

  describe('segments', () => {
    it('counts the parts commas and semicolons separate', () => {
      expect(tokens('Москва, Тверская 5; кв 7').map((t) => t.segment)).toEqual([0, 1, 1, 2, 2]);
    });

    it('opens one segment for several commas in a row, none before the first token', () => {
      expect(tokens(', Москва,, ; Тверская').map((t) => t.segment)).toEqual([0, 1]);
    });

    it('opens none for a hyphen, a slash or a dot', () => {
      expect(tokens('10-2/3.4').map((t) => t.segment)).toEqual([0, 0, 0, 0]);
    });
  });

  describe('the token limit', () => {
    it('reads at most 64 tokens, the first 64', () => {
      const words = Array.from({ length: 70 }, (_, i) => String(i + 1));
      const read = tokens(words.join(' '));
      expect(read).toHaveLength(64);
      expect(read.map((t) => t.text)).toEqual(words.slice(0, 64));
    });

    it('reads a string of exactly 64 tokens whole', () => {
      const words = Array.from({ length: 32 }, (_, i) => `д${i}`);
      expect(tokens(words.join(' '))).toHaveLength(64);
    });
  });

  describe('glued words', () => {
    it('splits a number glued to a word, and a word glued to a number', () => {
      expect(texts('дом53')).toEqual(['дом', '53']);
      expect(texts('53дом')).toEqual(['53', 'дом']);
      expect(texts('к2с3')).toEqual(['к', '2', 'с', '3']);
    });

    it('reads a letter between a number and к or с + number as a token of its own', () => {
      expect(texts('5ак1')).toEqual(['5', 'а', 'к', '1']);
      expect(texts('5бс2')).toEqual(['5', 'б', 'с', '2']);
      // another second letter keeps the two together
      expect(texts('5аб1')).toEqual(['5', 'аб', '1']);
    });

    it('splits the литера\'s word from its letter', () => {
      expect(texts('литБ')).toEqual(['лит', 'Б']);
      expect(texts('литерБ')).toEqual(['литер', 'Б']);
      expect(texts('литераБ')).toEqual(['литера', 'Б']);
      // литера is the word itself, литерА typed glued too
      expect(texts('литерА')).toEqual(['литерА']);
    });

    it('reads a number sign as a word of its own', () => {
      expect(texts('дом№5')).toEqual(['дом', '№', '5']);
      expect(tokens('№5').map((t) => [t.text, t.kind])).toEqual([['№', ALPHA], ['5', DIGIT]]);
    });

    it('splits two words of the vocabulary glued, only when asked', () => {
      expect(texts('борисаельцина', vocabulary)).toEqual(['борисаельцина']);
      expect(tokens('борисаельцина', vocabulary, 1).map((t) => [t.text, t.sep])).toEqual([['бориса', SPACE], ['ельцина', 0]]);
      expect(texts('БорисаЕльцина 5', vocabulary, 1)).toEqual(['Бориса', 'Ельцина', '5']);
    });

    it('splits a two-letter type word glued to a name', () => {
      expect(texts('улМира', vocabulary, 1)).toEqual(['ул', 'Мира']);
      expect(texts('улМира', vocabulary)).toEqual(['улМира']);
    });

    it('splits no word of the vocabulary, no run of unknown words, and no Latin run', () => {
      expect(texts('ельцина', vocabulary, 1)).toEqual(['ельцина']);
      expect(texts('абвгдежзик', vocabulary, 1)).toEqual(['абвгдежзик']);
      expect(texts('borisaelcina', vocabulary, 1)).toEqual(['borisaelcina']);
      // and none without the vocabulary
      expect(texts('борисаельцина', bare, 1)).toEqual(['борисаельцина']);
    });

    it('splits a word being typed after a word when the last run is read as typed', () => {
      expect(texts('борисаельц', vocabulary, 1)).toEqual(['борисаельц']);
      expect(texts('борисаельц', vocabulary, 2)).toEqual(['бориса', 'ельц']);
    });
  });

  describe('letters of two scripts and digits', () => {
    it('keeps Latin and Cyrillic letters glued in one run', () => {
      expect(tokens('abcабв').map((t) => [t.text, t.kind])).toEqual([['abcабв', ALPHA]]);
    });

    it('reads a Latin word as letters and breaks it at a digit', () => {
      expect(tokens('tverskaya5').map((t) => [t.text, t.kind, t.sep])).toEqual([['tverskaya', ALPHA, SPACE], ['5', DIGIT, 0]]);
      expect(tokens('5k2').map((t) => [t.text, t.kind])).toEqual([['5', DIGIT], ['k', ALPHA], ['2', DIGIT]]);
    });

    it('reads letters of the other countries\' alphabets as letters', () => {
      expect(texts('Қазақстан Ўзбек Київ')).toEqual(['Қазақстан', 'Ўзбек', 'Київ']);
    });

    it('does not break a word at an invisible character', () => {
      expect(tokens('Мур\u200bзинская').map((t) => [t.text, t.length])).toEqual([['Мур\u200bзинская', 10]]);
    });
  });

  describe('abbreviations written with a hyphen', () => {
    it('joins two short runs into one token, the hyphen out of the folded text', () => {
      for (const abbreviation of ['пр-кт', 'б-р', 'р-н', 'ст-ца', 'кв-л']) {
        expect(tokens(`${abbreviation} Мира`).map((t) => [t.text, t.length])).toEqual([[abbreviation, abbreviation.length - 1], ['Мира', 4]]);
      }
    });

    it('keeps the hyphen between longer runs: words, not an abbreviation', () => {
      expect(tokens('уст-кут').map((t) => [t.text, t.sep])).toEqual([['уст', SPACE], ['кут', HYPHEN]]);
      expect(texts('Ростов-на-Дону')).toEqual(['Ростов', 'на', 'Дону']);
    });

    it('keeps the hyphen of a name being typed whose words the vocabulary has apart', () => {
      // ак is a word, д starts довурак, and акд starts none: Ак-Довурак typed
      expect(texts('ак-д', vocabulary)).toEqual(['ак', 'д']);
      // the bare core knows no word: an abbreviation
      expect(texts('ак-д')).toEqual(['ак-д']);
    });

    it('joins a compound the vocabulary writes whole, only when asked', () => {
      expect(texts('Ново-Пашинский', vocabulary)).toEqual(['Ново', 'Пашинский']);
      expect(tokens('Ново-Пашинский', vocabulary, 0, 1).map((t) => [t.text, t.length])).toEqual([['Ново-Пашинский', 13]]);
      // not a word the vocabulary has
      expect(texts('Ново-Ленинский', vocabulary, 0, 1)).toEqual(['Ново', 'Ленинский']);
    });
  });
});
