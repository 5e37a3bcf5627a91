#!/usr/bin/python3
"""
Makes GRIB2 test messages with ecCodes and records what ecCodes says of them (engine/grib/testdata).

Every message is a real GFS 2.5 deg message (NOAA, public domain; ../shared/data/samples/gfs-2p5-full)
rewritten by ecCodes' grib_set, which encodes the product definition templates and parameters itself:
  product-templates.grib2   one message per case of PRODUCT_CASES (templates 4.0 to 4.15)
  local-parameters.grib2    one message per case of PARAMETER_CASES (centre-local parameters)
and testdata/eccodes-expected.json holds, per set, ecCodes' answer for the keys of KEYS per message
(null where ecCodes has no such key) and what grib_set changed in each (sections 1 and 4, section 0's
discipline; the rest is a message of the source file), from which the test rebuilds the messages. Needs the ecCodes command line tools (grib_copy, grib_set,
grib_get; Debian package libeccodes-tools). Run from the repository root:
  engine/grib/eccodes-expected.py
"""

import json
import os
import struct
import subprocess
import sys
import tempfile

SOURCE = '../shared/data/samples/gfs-2p5-full/gfs2p5_20110110T12_f120_full.grib2'
# Message 324: land-sea mask at the surface, template 4.0, 1281 bytes; 230: ice pellets, 4.8, 242 bytes.
INSTANT, STATISTICAL = 324, 230
OUT = 'engine/grib/testdata'

KEYS = [
    'centre', 'discipline', 'parameterCategory', 'parameterNumber', 'shortName', 'paramId',
    'productDefinitionTemplateNumber', 'typeOfLevel', 'level', 'stepRange', 'stepType',
    'typeOfStatisticalProcessing', 'perturbationNumber', 'numberOfForecastsInEnsemble', 'derivedForecast',
    'probabilityType', 'lowerLimit', 'upperLimit', 'percentileValue',
]

ENSEMBLE = 'typeOfEnsembleForecast=3,perturbationNumber=7,numberOfForecastsInEnsemble=31'
DERIVED = 'derivedForecast=2,numberOfForecastsInEnsemble=31'
ISOBARIC_850 = 'typeOfFirstFixedSurface=100,scaleFactorOfFirstFixedSurface=0,scaledValueOfFirstFixedSurface=85000'
TWO_METRES = 'typeOfFirstFixedSurface=103,scaleFactorOfFirstFixedSurface=0,scaledValueOfFirstFixedSurface=2'
TEMPERATURE = 'discipline=0,parameterCategory=0,parameterNumber=0'
PRECIPITATION = 'discipline=0,parameterCategory=1,parameterNumber=8'

# (source message, grib_set keys); the keys of each case are applied in order.
PRODUCT_CASES = [
    (INSTANT, 'productDefinitionTemplateNumber=0'),
    (INSTANT, f'{TEMPERATURE},{ISOBARIC_850},productDefinitionTemplateNumber=1,{ENSEMBLE}'),
    (INSTANT, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=1,typeOfEnsembleForecast=0,perturbationNumber=0,numberOfForecastsInEnsemble=51'),
    (INSTANT, f'{TEMPERATURE},{ISOBARIC_850},productDefinitionTemplateNumber=2,{DERIVED}'),
    (INSTANT, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=5,probabilityType=3,scaleFactorOfLowerLimit=0,scaledValueOfLowerLimit=273'),
    (INSTANT, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=5,probabilityType=0,scaleFactorOfLowerLimit=1,scaledValueOfLowerLimit=2655'),
    (INSTANT, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=6,percentileValue=90'),
    (INSTANT, f'{TEMPERATURE},{ISOBARIC_850},productDefinitionTemplateNumber=15,statisticalProcess=2,spatialProcessing=1,numberOfPointsUsed=9'),
    (STATISTICAL, 'productDefinitionTemplateNumber=8'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=1'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=1,forecastTime=0,lengthOfTimeRange=120'),
    (STATISTICAL, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=2'),
    (STATISTICAL, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=3'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=9,typeOfStatisticalProcessing=1,probabilityType=3,scaleFactorOfLowerLimit=0,scaledValueOfLowerLimit=10'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=9,typeOfStatisticalProcessing=1,probabilityType=2,scaleFactorOfLowerLimit=1,scaledValueOfLowerLimit=5,scaleFactorOfUpperLimit=0,scaledValueOfUpperLimit=10'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=10,typeOfStatisticalProcessing=1,percentileValue=50'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=11,typeOfStatisticalProcessing=1,{ENSEMBLE}'),
    (STATISTICAL, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=11,typeOfStatisticalProcessing=2,{ENSEMBLE}'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=12,typeOfStatisticalProcessing=1,{DERIVED}'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=12,typeOfStatisticalProcessing=0,derivedForecast=4,numberOfForecastsInEnsemble=21'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=9,typeOfStatisticalProcessing=1,typeOfTimeIncrement=2,probabilityType=1,scaleFactorOfUpperLimit=0,scaledValueOfUpperLimit=20'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=11,typeOfStatisticalProcessing=1,typeOfTimeIncrement=2,{ENSEMBLE}'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=12,typeOfStatisticalProcessing=1,typeOfTimeIncrement=2,{DERIVED}'),
    (STATISTICAL, f'{PRECIPITATION},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=1,typeOfTimeIncrement=2,indicatorOfUnitOfTimeRange=0,forecastTime=90,indicatorOfUnitForTimeRange=0,lengthOfTimeRange=60'),
    (STATISTICAL, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=2,forecastTime=0,lengthOfTimeRange=6'),
    (STATISTICAL, f'{TEMPERATURE},{TWO_METRES},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=3,forecastTime=0,lengthOfTimeRange=3'),
]

ACCUMULATION = 'productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=1,typeOfTimeIncrement=2'
MAXIMUM_3H = f'{TWO_METRES},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=2,forecastTime=0,lengthOfTimeRange=3'
MINIMUM_3H = f'{TWO_METRES},productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=3,forecastTime=0,lengthOfTimeRange=3'
ECMWF_LOCAL = 'localTablesVersion=1'

PARAMETER_CASES = [
    # (centre, discipline, category, number, extra keys): parameters of the GFS, ECMWF and ICON
    # inventories that a centre's local tables name (localConcepts/{kwbc,ecmf,edzw}), and look-alikes
    # that they must not name.
    (98, 0, 1, 193, f'{ECMWF_LOCAL},{ACCUMULATION}'),   # ECMWF open data total precipitation
    (98, 0, 1, 193, f'localTablesVersion=0,{ACCUMULATION}'),  # the same without ECMWF's local tables
    (98, 0, 1, 193, ''),                                # not accumulated
    (98, 0, 1, 196, f'{ECMWF_LOCAL},{ACCUMULATION}'),
    (98, 0, 1, 198, f'{ECMWF_LOCAL},{ACCUMULATION}'),
    (98, 2, 0, 201, f'{ECMWF_LOCAL},{ACCUMULATION}'),
    (98, 0, 0, 0, MAXIMUM_3H),
    (98, 0, 0, 0, MINIMUM_3H),
    (7, 0, 0, 0, MAXIMUM_3H),
    (98, 0, 1, 52, f'typeOfFirstFixedSurface=1,{ACCUMULATION}'),
    (78, 0, 1, 52, f'typeOfFirstFixedSurface=1,{ACCUMULATION}'),
    (78, 0, 1, 52, 'typeOfFirstFixedSurface=103,productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=4,typeOfTimeIncrement=2'),
    (7, 0, 1, 8, 'productDefinitionTemplateNumber=8,typeOfStatisticalProcessing=0,typeOfTimeIncrement=2'),
    (7, 0, 1, 192, ''), (7, 0, 1, 193, ''), (7, 0, 16, 195, ''), (7, 0, 16, 196, ''), (7, 0, 3, 196, ''),
    (7, 2, 0, 196, ''), (7, 0, 17, 192, ''), (7, 0, 7, 193, ''), (7, 0, 2, 220, ''),
    (98, 0, 16, 196, ''), (78, 0, 1, 192, ''),
]

def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout

def build(cases, work):
    parts = []
    for k, (message, keys) in enumerate(cases):
        source = os.path.join(work, f'source-{message}.grib2')
        if not os.path.exists(source):
            run('grib_copy', '-w', f'count={message}', SOURCE, source)
        out = os.path.join(work, f'case-{len(parts)}.grib2')
        result = subprocess.run(['grib_set', '-s', keys, source, out], capture_output=True, text=True)
        if result.returncode != 0 or result.stderr.strip():
            sys.exit(f'grib_set -s {keys} failed: {result.stderr}')
        parts.append(out)
    return parts

def answers(path):
    records = []
    text = run('grib_get', '-f', '-p', ','.join(KEYS), path)
    for line in text.strip().split('\n'):
        values = line.split()
        record = {}
        for key, value in zip(KEYS, values):
            if value == 'not_found':
                record[key] = None
            elif value.lstrip('-').isdigit() and key not in ('stepRange', 'centre'):
                record[key] = int(value)
            else:
                try:
                    record[key] = float(value) if key in ('lowerLimit', 'upperLimit') else value
                except ValueError:
                    record[key] = value
        records.append(record)
    return records

def messages(data):
    out, i = [], 0
    while (i := data.find(b'GRIB', i)) >= 0:
        length = struct.unpack('>Q', data[i + 8:i + 16])[0]
        out.append(data[i:i + length])
        i += length
    return out

def sections(message):
    out, i = [], 16
    while i < len(message) - 4:
        length = struct.unpack('>I', message[i:i + 4])[0]
        out.append((message[i + 4], message[i:i + length]))
        i += length
    return out

def patches(path):
    """
    What grib_set changed in each message: sections 1 and 4 (and the discipline of section 0); 3, 5, 6
    and 7 stay those of a message of SOURCE, named by its index there. The test rebuilds the messages
    from SOURCE with these, so no GRIB file is kept in the repository.
    """
    with open(SOURCE, 'rb') as f:
        source = messages(f.read())
    tails = {}
    for k, m in enumerate(source):
        tails.setdefault(b''.join(body for n, body in sections(m) if n in (3, 5, 6, 7)), k)
    with open(path, 'rb') as f:
        written = messages(f.read())
    out = []
    for m in written:
        parts = dict(sections(m))
        if sorted(parts) != [1, 3, 4, 5, 6, 7]:
            sys.exit(f'unexpected sections {sorted(parts)} in a written message')
        tail = b''.join(parts[n] for n in (3, 5, 6, 7))
        if tail not in tails:
            sys.exit('grib_set changed sections 3, 5, 6 or 7 of a message')
        out.append({'source': tails[tail], 'discipline': m[6], 'section1': parts[1].hex(), 'section4': parts[4].hex()})
    return out

def main():
    parameter_cases = [
        (INSTANT, f'centre={c},discipline={d},parameterCategory={cat},parameterNumber={n}' + (f',{extra}' if extra else ''))
        for c, d, cat, n, extra in PARAMETER_CASES
    ]
    expected = {}
    with tempfile.TemporaryDirectory() as work:
        for name, cases in (('product-templates.grib2', PRODUCT_CASES), ('local-parameters.grib2', parameter_cases)):
            path = os.path.join(work, name)
            with open(path, 'wb') as f:
                for part in build(cases, work):
                    with open(part, 'rb') as p:
                        f.write(p.read())
            expected[name] = {'cases': [keys for _, keys in cases], 'records': answers(path), 'messages': patches(path)}
    with open(os.path.join(OUT, 'eccodes-expected.json'), 'w') as f:
        json.dump({'eccodes': run('grib_get', '-V').strip(), **expected}, f, indent=1)
        f.write('\n')

main()
