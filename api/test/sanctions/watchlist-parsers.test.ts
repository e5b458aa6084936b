import path from 'node:path';
import { WATCHLIST_FORMATS } from '../../src/data-access/watchlists/parsers/watchlist-formats';
import { parseFtmJsonl } from '../../src/data-access/watchlists/parsers/ftm-jsonl.parser';
import { parseOfacSdnCsv } from '../../src/data-access/watchlists/parsers/ofac-sdn-csv.parser';
import { parseUnConsolidatedXml } from '../../src/data-access/watchlists/parsers/un-consolidated-xml.parser';

const REAL = path.resolve(__dirname, 'lists');
const FIXTURES = path.join(__dirname, 'fixtures');
const read = (format: string, file: string) => WATCHLIST_FORMATS[format].read(file);

describe('watchlist parsers', () => {
  it('reads every individual of the real OFAC SDN list with aliases, DOBs and nationalities from Remarks', async () => {
    const entries = await read('ofac-sdn-csv', path.join(REAL, 'sdn.csv'));
    expect(entries).toHaveLength(4620);
    expect(entries.find((entry) => entry.id === '2676')).toEqual({
      id: '2676',
      names: ['Dr. Ayman AL ZAWAHIRI', 'Ayman AL-ZAWAHIRI', 'Ahmad Fuad SALIM', 'Aiman Muhammad Rabi AL-ZAWAHIRI'],
      dobs: ['1951-06-19'],
      nationalities: [],
    });
    expect(entries.filter((entry) => entry.names.length > 1).length).toBeGreaterThan(2000);
    expect(entries.filter((entry) => entry.dobs.length > 0).length).toBeGreaterThan(4000);
    expect(entries.filter((entry) => entry.nationalities.includes('KP')).length).toBeGreaterThan(50); // "Korea, North"
  });

  it('reads every individual of the real UN consolidated list with original-script names and year-only DOBs', async () => {
    const entries = await read('un-xml', path.join(REAL, 'UN_consolidated.xml'));
    expect(entries).toHaveLength(730);
    expect(entries[0]).toEqual({
      id: '6907993',
      names: ['ERIC BADEGE'],
      dobs: ['1971'],
      nationalities: ['CD'],
    });
    expect(entries.some((entry) => entry.names.some((name) => /[\u0600-\u06FF]/.test(name)))).toBe(true);
  });

  it('reads persons only from OpenSanctions CSV, FollowTheMoney, EU and UK files', async () => {
    expect(await read('opensanctions-csv', path.join(FIXTURES, 'targets.simple.csv'))).toEqual([
      {
        id: 'NK-test-0001',
        names: ['Tomasz Wierzbicki-Nowak', 'Tomek Nowak', 'Tomasz Nowak'],
        dobs: ['1979-11-30'],
        nationalities: ['PL', 'BY'],
      },
      {
        id: 'NK-test-0003',
        names: ['José María Fernández Ruiz', 'Pepe Fernández'],
        dobs: ['1958'],
        nationalities: ['VE'],
      },
    ]);
    const ftm = await read('ftm-jsonl', path.join(FIXTURES, 'entities.ftm.json'));
    expect(ftm.map((entry) => entry.id)).toEqual(['ftm-test-specimen', 'ftm-test-0002']);
    expect(ftm[0]?.names).toEqual(['Willeke Liselotte de Bruijn']); // weakAlias "Willy" is not matched on
    expect(ftm[1]).toMatchObject({
      names: ['Hamid Qasemi', 'Abu Yusuf al-Qasimi'],
      dobs: ['1970-02'],
      nationalities: ['IR'],
    });
    expect(await read('eu-xml', path.join(FIXTURES, 'eu-fsf.xml'))).toEqual([
      {
        id: '139001',
        names: ['Oleg Petrovich Vorontsev', 'Олег Петрович Воронцев'],
        dobs: ['1968-04-02'],
        nationalities: ['RU'],
      },
      { id: '139003', names: ['Amira Nasser El-Khoury'], dobs: ['1975'], nationalities: ['LB'] },
    ]);
    expect(await read('uk-xml', path.join(FIXTURES, 'uk-sanctions.xml'))).toEqual([
      {
        id: 'RUS9001',
        names: ['Dmitri Alexandrovich Kosygin-Marr', 'Dmitry Kosygin'],
        dobs: ['1961', '1962-07-12'],
        nationalities: ['RU'],
      },
    ]);
  });

  it('parses OFAC DOB ranges, circa years and month-year dates', () => {
    const csv = [
      '1,"DOE, John","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 1960 to 1962; nationality Iran."',
      '2,"ROE, Jane","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB circa 1955; alt. DOB Mar 1957; citizen Syria."',
      '3,"POE, Jim","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 01 Jan 1970 to 31 Dec 1971; nationality Korea, North."',
    ].join('\n');
    expect(parseOfacSdnCsv(csv)).toEqual([
      { id: '1', names: ['John DOE'], dobs: ['1960', '1961', '1962'], nationalities: ['IR'] },
      { id: '2', names: ['Jane ROE'], dobs: ['1955', '1954', '1956', '1957-03'], nationalities: ['SY'] },
      { id: '3', names: ['Jim POE'], dobs: ['1970', '1971'], nationalities: ['KP'] },
    ]);
  });

  it('refuses bad files with the line and the reason', () => {
    expect(() => parseOfacSdnCsv('1,"DOE, John","individual"\n')).toThrow(/line 1: .*/);
    expect(() =>
      parseOfacSdnCsv(
        '1,"DOE, John","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,-0-\nabc,"X","individual","X",-0-,-0-,-0-,-0-,-0-,-0-,-0-,-0-\n',
      ),
    ).toThrow('line 2: ent_num "abc" is not a number');
    expect(() => parseFtmJsonl('{"id":"a","schema":"Person","properties":{"name":["A B"]}}\n{"id": \n')).toThrow(
      /^line 2: not JSON/,
    );
    expect(() =>
      parseUnConsolidatedXml('<CONSOLIDATED_LIST>\n<INDIVIDUALS>\n<INDIVIDUAL><DATAID>1</DATAID>\n</INDIVIDUALS>'),
    ).toThrow(/^line \d+: malformed XML/);
    expect(() =>
      parseUnConsolidatedXml(
        '<CONSOLIDATED_LIST>\n<INDIVIDUALS>\n<INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL>\n<INDIVIDUAL><FIRST_NAME>B</FIRST_NAME></INDIVIDUAL>\n</INDIVIDUALS></CONSOLIDATED_LIST>',
      ),
    ).toThrow('line 4: INDIVIDUAL without a DATAID');
  });
});
