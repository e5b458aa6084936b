/**
 * Invented people for synthetic documents: common given names and surnames from several languages,
 * some with diacritics, particles, hyphens or apostrophes so that MRZ transliteration and
 * truncation are exercised. Any resemblance to a real person is a coincidence of common names.
 */
export const SURNAMES = [
  'SMITH', 'GARCIA LOPEZ', 'MÜLLER', 'DUBOIS', 'ROSSI', 'NOWAK', 'JOHANSSON', 'VAN DER BERG', "O'NEILL",
  'KOWALSKI', 'FERNANDES', 'PAPADOPOULOS', 'NGUYEN', 'OKAFOR', 'HAMALAINEN', 'SCHMIDT-BAUER', 'ŁUKASIEWICZ',
  'BENALI', 'YILMAZ', 'IVANOVA', 'KIM', 'TANAKA', 'SILVA', 'MARTINEZ DE LA CRUZ', 'ANDERSEN', 'FISCHER',
  'DE JONG', 'ÖZTÜRK', 'HERNANDEZ', 'MORENO', 'LEFEBVRE', 'ESPOSITO', 'NIELSEN', 'BERGSTRÖM', 'MACDONALD',
  'ABDULLAH', 'OLIVEIRA', 'HORVATH', 'PETROV', 'WOJCIK', 'QUINTERO', 'BALOGUN', 'DIALLO', 'ZHANG', 'SATO',
  'BOUCHARD', 'VILLANUEVA', 'ØSTERGAARD', 'CONSTANTINESCU', 'WASHINGTON-LEE',
];

export const GIVEN_NAMES = {
  F: ['ANNA', 'MARIA', 'SOPHIE', 'LÉA', 'ELENA', 'FATIMA', 'CHLOE', 'INGRID', 'AMARA', 'YUKI', 'ZOË', 'CLAIRE',
    'OLGA', 'PRIYA', 'NOOR', 'HANNA', 'LUCÍA', 'GRETA', 'AMÉLIE', 'MEI', 'SIOBHAN', 'ADAEZE', 'KATARZYNA', 'EMMA'],
  M: ['JOHN', 'JOSÉ', 'LUCAS', 'MOHAMED', 'PIOTR', 'JAN', 'HIROSHI', 'DAVID', 'ANDRÉ', 'OMAR', 'SEBASTIAN',
    'MIKKO', 'CHIDI', 'LIAM', 'KEVIN', 'FRANÇOIS', 'MATEO', 'STEFAN', 'ARJUN', 'TOMÁS', 'NIKOLAI', 'WEI', 'KWAME', 'PAUL'],
};

/** Issuing states: ICAO codes (Germany is "D"), the alpha-2 the check must report, and a name to print. */
export const ISSUERS = [
  { icao: 'FRA', alpha2: 'FR', name: 'RÉPUBLIQUE FRANÇAISE' }, { icao: 'D', alpha2: 'DE', name: 'BUNDESREPUBLIK DEUTSCHLAND' },
  { icao: 'ITA', alpha2: 'IT', name: 'REPUBBLICA ITALIANA' }, { icao: 'ESP', alpha2: 'ES', name: 'REINO DE ESPAÑA' },
  { icao: 'NLD', alpha2: 'NL', name: 'KONINKRIJK DER NEDERLANDEN' }, { icao: 'BEL', alpha2: 'BE', name: 'BELGIQUE' },
  { icao: 'POL', alpha2: 'PL', name: 'RZECZPOSPOLITA POLSKA' }, { icao: 'SWE', alpha2: 'SE', name: 'SVERIGE' },
  { icao: 'FIN', alpha2: 'FI', name: 'SUOMI FINLAND' }, { icao: 'PRT', alpha2: 'PT', name: 'REPÚBLICA PORTUGUESA' },
  { icao: 'GRC', alpha2: 'GR', name: 'HELLENIC REPUBLIC' }, { icao: 'IRL', alpha2: 'IE', name: 'ÉIRE IRELAND' },
  { icao: 'GBR', alpha2: 'GB', name: 'UNITED KINGDOM' }, { icao: 'USA', alpha2: 'US', name: 'UNITED STATES OF AMERICA' },
  { icao: 'CAN', alpha2: 'CA', name: 'CANADA' }, { icao: 'BRA', alpha2: 'BR', name: 'REPÚBLICA FEDERATIVA DO BRASIL' },
  { icao: 'MEX', alpha2: 'MX', name: 'ESTADOS UNIDOS MEXICANOS' }, { icao: 'JPN', alpha2: 'JP', name: 'JAPAN' },
  { icao: 'KOR', alpha2: 'KR', name: 'REPUBLIC OF KOREA' }, { icao: 'NGA', alpha2: 'NG', name: 'FEDERAL REPUBLIC OF NIGERIA' },
  { icao: 'TUR', alpha2: 'TR', name: 'TÜRKİYE CUMHURİYETİ' }, { icao: 'CHE', alpha2: 'CH', name: 'SCHWEIZ SUISSE SVIZZERA' },
  { icao: 'AUT', alpha2: 'AT', name: 'REPUBLIK ÖSTERREICH' }, { icao: 'DNK', alpha2: 'DK', name: 'DANMARK' },
  { icao: 'NOR', alpha2: 'NO', name: 'NORGE' }, { icao: 'HUN', alpha2: 'HU', name: 'MAGYARORSZÁG' },
  { icao: 'ROU', alpha2: 'RO', name: 'ROMÂNIA' }, { icao: 'SEN', alpha2: 'SN', name: 'RÉPUBLIQUE DU SÉNÉGAL' },
  { icao: 'MAR', alpha2: 'MA', name: 'ROYAUME DU MAROC' }, { icao: 'VNM', alpha2: 'VN', name: 'VIET NAM' },
];

export const CITIES = [
  { city: 'LYON', postal: '69003', street: 'RUE DE LA REPUBLIQUE' }, { city: 'BERLIN', postal: '10115', street: 'INVALIDENSTRASSE' },
  { city: 'MILANO', postal: '20121', street: 'VIA MANZONI' }, { city: 'MADRID', postal: '28013', street: 'CALLE MAYOR' },
  { city: 'UTRECHT', postal: '3511 LX', street: 'OUDEGRACHT' }, { city: 'GENT', postal: '9000', street: 'VELDSTRAAT' },
  { city: 'KRAKOW', postal: '31-042', street: 'ULICA FLORIANSKA' }, { city: 'GOTEBORG', postal: '411 38', street: 'KUNGSGATAN' },
  { city: 'PORTO', postal: '4000-069', street: 'RUA DE SANTA CATARINA' }, { city: 'CORK', postal: 'T12 XK38', street: 'OLIVER PLUNKETT STREET' },
];
